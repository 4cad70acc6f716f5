import type { ChannelName } from '../../../shared/channels'
import type { AppApi, ChannelArgs, ChannelResult, EventPayloads } from '../../../shared/contract'
import type { EventName } from '../../../shared/channels'
import type { ErrorData, Result } from '../../../shared/errors'

/** A failed call, carrying the core's error (code, message) for the query layer and the views. */
class CallError extends Error {
  readonly data: ErrorData

  constructor(data: ErrorData) {
    super(data.message)
    this.name = 'CallError'
    this.data = data
  }
}

/**
 * The typed client over `window.api`, the renderer's one way to the core:
 * each channel's argument and result types come from `src/shared/contract.ts`.
 * `call` throws {@link CallError} on a failed result, which is what the query
 * layer (queries and mutations) expects; `attempt` answers the same as data,
 * for app-wide state that keeps a failed write's error to show.
 */
export interface Client {
  call<C extends ChannelName>(channel: C, args: ChannelArgs<C>): Promise<ChannelResult<C>>
  attempt<C extends ChannelName>(
    channel: C,
    args: ChannelArgs<C>,
  ): Promise<Result<ChannelResult<C>>>
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void
  readonly api: AppApi
}

/** Wraps an {@link AppApi} (the preload's or the web host shim's) into a {@link Client}. */
export function createClient(api: AppApi): Client {
  return {
    api,
    async call(channel, args) {
      const answer = await api.invoke(channel, args)
      if (!answer.ok) throw new CallError(answer.error)
      return answer.value
    },
    attempt: (channel, args) =>
      api.invoke(channel, args).catch((error: unknown) => ({ ok: false, error: errorData(error) })),
    on: (event, listener) => api.on(event, listener),
  }
}

/** The error data of anything a call threw (a non-{@link CallError} becomes `internal`). */
export function errorData(error: unknown): ErrorData {
  if (error instanceof CallError) return error.data
  return { code: 'internal', message: error instanceof Error ? error.message : String(error) }
}
