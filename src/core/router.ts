import type { z } from 'zod'
import { CHANNEL_NAMES, isChannelName, type ChannelName } from '../shared/channels'
import { argSchemas, type ChannelResult, type ParsedArgs } from '../shared/contract'
import type { Result } from '../shared/errors'
import { AppError } from './app-error'

/** Largest accepted argument payload, as JSON text. */
export const MAX_ARGS_BYTES = 64 * 1024

/** The answer to arguments over {@link MAX_ARGS_BYTES}, the same over IPC and the web host (413 there). */
export const OVERSIZE_ARGS_MESSAGE = `Arguments are larger than ${MAX_ARGS_BYTES} bytes.`

/** A handler: checks nothing itself (the router parsed its arguments), calls one service. */
type Handler<C extends ChannelName> = (
  args: ParsedArgs<C>,
) => Promise<ChannelResult<C>> | ChannelResult<C>

/** Exactly one handler per channel: the compiler rejects a missing or extra one. */
export type Handlers = { readonly [C in ChannelName]: Handler<C> }

/** Turns the channel table into one `dispatch` used by both hosts. */
export interface Router {
  readonly channels: readonly ChannelName[]
  /** Validates and runs one call; never throws, always answers a {@link Result}. */
  dispatch(channel: string, rawArgs: unknown): Promise<Result<unknown>>
}

/** Optional logging hook; messages passed to it are already secret-free. */
export type RouterLog = (message: string) => void

/**
 * Runs before every call's arguments are parsed and may refuse it by
 * throwing an {@link AppError} (the app lock refuses data channels with
 * `locked`, `lock/app-lock.ts`).
 */
export type RouterGuard = (channel: ChannelName) => Promise<void> | void

/** Builds the router from the handler table. */
export function createRouter(
  handlers: Handlers,
  options: { redact?: (text: string) => string; log?: RouterLog; guard?: RouterGuard } = {},
): Router {
  const redact = options.redact ?? ((text: string) => text)
  const log = options.log ?? ((message: string) => console.error(message))

  return {
    channels: CHANNEL_NAMES,
    async dispatch(channel, rawArgs) {
      if (!isChannelName(channel)) {
        return fail(new AppError('unknown_channel', 'Unknown channel.'))
      }
      try {
        await options.guard?.(channel)
        const args = parseArgs(channel, rawArgs)
        const handler = handlers[channel] as Handler<ChannelName>
        const value = await handler(args as never)
        return { ok: true, value }
      } catch (error) {
        if (error instanceof AppError) {
          return fail(
            new AppError(error.code, redact(error.message), {
              ...(error.status === undefined ? {} : { status: error.status }),
              ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
              ...(error.reason === undefined ? {} : { reason: error.reason }),
              ...(error.values === undefined ? {} : { values: error.values }),
            }),
          )
        }
        log(
          `[router] ${channel} failed: ${redact(error instanceof Error ? (error.stack ?? error.message) : String(error))}`,
        )
        return fail(new AppError('internal', 'Unexpected error; see the log for details.'))
      }
    },
  }
}

function fail(error: AppError): Result<never> {
  return { ok: false, error: error.toData() }
}

function parseArgs(channel: ChannelName, rawArgs: unknown): unknown {
  const input = rawArgs === undefined ? {} : rawArgs
  let size: number
  try {
    size = JSON.stringify(input)?.length ?? 0
  } catch {
    throw new AppError('invalid_argument', 'Arguments must be plain JSON data.')
  }
  if (size > MAX_ARGS_BYTES) {
    throw new AppError('invalid_argument', OVERSIZE_ARGS_MESSAGE)
  }
  const parsed = argSchemas[channel].safeParse(input)
  if (!parsed.success) {
    throw new AppError('invalid_argument', describeIssues(parsed.error))
  }
  return parsed.data
}

/** Names the offending paths without echoing the values, which may be large or sensitive. */
function describeIssues(error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.join('.') : '(arguments)'
    return issue.code === 'unrecognized_keys'
      ? `${path}: unexpected field(s) ${issue.keys.join(', ')}`
      : `${path}: ${issue.message}`
  })
  return `Invalid arguments: ${parts.join('; ')}`
}
