import type {
  Brand,
  Guarantee,
  GuaranteeQuery,
  Inspection,
  InspectionQuery,
  ListPage,
} from '../../shared/domain'
import { AppError } from '../app-error'
import { Redactor } from '../redact'
import {
  DEFAULT_TIMEOUT_MS,
  getJsonBody,
  parseJsonBody,
  seconds,
  type FetchLike,
  type JsonBody,
} from './http'
import { InFlightLimit, outcomeOfError, waitForPause } from './in-flight'
import {
  DEFAULT_RETRY_POLICY,
  systemTiming,
  withRetries,
  type RetryPolicy,
  type Timing,
} from './retry'
import { readGuarantee, readInspection, readPage, type ItemReader } from './read-records'
import { pathSegment, type ServiceTarget } from './service-target'
import { brandListSchema, brandSchema } from './schemas'

/** The partner API key and secret, held only in main. */
export interface Credentials {
  readonly apiKey: string
  readonly apiSecret: string
}

/** Where the client gets credentials from (the vault in the app). */
export type CredentialSource = () => Promise<Credentials>

/** Options of {@link PartnerClient}. */
export interface PartnerClientOptions {
  readonly fetch: FetchLike
  readonly target: ServiceTarget
  readonly credentials: CredentialSource
  /** Deadline of one request, headers and body together (default 30 s). */
  readonly timeoutMs?: number
  /** Largest accepted answer body; larger ones fail with `too_large` (default 32 MB). */
  readonly maxBytes?: number
  /** Attempts, backoff and the overall deadline of one call (defaults in `retry.ts`). */
  readonly retry?: Partial<RetryPolicy>
  /** Clock, sleep and random source; tests pass a virtual one. */
  readonly timing?: Timing
  /** Called before each retry wait (for logs; never given a secret). */
  readonly onRetry?: (info: { attempt: number; delayMs: number; code: string }) => void
  /** Requests in flight to this service, adapted to its answers (default: a new one per client). */
  readonly inFlight?: InFlightLimit
}

/** A page of items that passed the schema, and how many did not. */
export interface Parsed<T> {
  readonly items: T[]
  /** Items that missed a required field: counted and reported, never silently dropped. */
  readonly rejected: number
}

/** The partner API client (operations 1–3 with headers; URL builders for 4–5). */
export class PartnerClient {
  readonly #options: PartnerClientOptions
  readonly #inFlight: InFlightLimit
  /** The redactor of the last credentials seen, and whose they are (building one costs ~0.2 ms). */
  #redactor: { readonly key: string; readonly secret: string; readonly redactor: Redactor } | null =
    null

  constructor(options: PartnerClientOptions) {
    this.#options = options
    this.#inFlight = options.inFlight ?? new InFlightLimit()
  }

  /**
   * How many requests this service takes at once: every attempt of every
   * call reports to it, and page walks read it (`in-flight.ts`).
   */
  get inFlight(): InFlightLimit {
    return this.#inFlight
  }

  /** Operation 3: the luxury brand list. */
  async listBrands(signal?: AbortSignal): Promise<Parsed<Brand>> {
    const body = await this.#get(
      `v1/partner/${pathSegment(this.#options.target.partnerId, 'partnerId')}/guarantee/brand`,
      signal,
    )
    const list = brandListSchema.safeParse(body)
    if (!list.success) throw new AppError('bad_response', 'The brand list is not an array.')
    const items: Brand[] = []
    let rejected = 0
    for (const raw of list.data) {
      const parsed = brandSchema.safeParse(raw)
      if (parsed.success) {
        items.push({
          idx: parsed.data.idx,
          name: parsed.data.name.trim(),
          englishName: parsed.data.englishName.trim(),
        })
      } else {
        rejected += 1
      }
    }
    return { items, rejected }
  }

  /** Operation 1: one page of the partner's guarantees. */
  async listGuarantees(
    params: GuaranteeQuery = {},
    signal?: AbortSignal,
  ): Promise<ListPage<Guarantee>> {
    return this.#page('guarantee', params, readGuarantee, signal)
  }

  /** Operation 2: one page of the partner's inspections. */
  async listInspections(
    params: InspectionQuery = {},
    signal?: AbortSignal,
  ): Promise<ListPage<Inspection>> {
    return this.#page('inspection', params, readInspection, signal)
  }

  /**
   * One page of a list as received, checked but not parsed: the sync parses
   * it off the main thread (`sync/page-thread/client.ts`).
   */
  listBody(
    list: 'guarantee' | 'inspection',
    params: GuaranteeQuery | InspectionQuery,
    signal?: AbortSignal,
  ): Promise<JsonBody> {
    const partner = pathSegment(this.#options.target.partnerId, 'partnerId')
    return this.#getBody(`v1/partner/${partner}/${list}${queryString(params)}`, signal)
  }

  /** One page of a list, parsed. */
  async #page<T>(
    list: 'guarantee' | 'inspection',
    params: GuaranteeQuery | InspectionQuery,
    read: ItemReader<T>,
    signal?: AbortSignal,
  ): Promise<ListPage<T>> {
    return readPage(await this.#listValue(list, params, signal), params.page ?? 1, read)
  }

  /** One page of a list as its parsed JSON value (not yet read as records). */
  async #listValue(
    list: 'guarantee' | 'inspection',
    params: GuaranteeQuery | InspectionQuery,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return parseJsonBody(await this.listBody(list, params, signal))
  }

  #redactorFor(apiKey: string, apiSecret: string): Redactor {
    const cached = this.#redactor
    if (cached?.key === apiKey && cached.secret === apiSecret) return cached.redactor
    const redactor = new Redactor()
    redactor.add(apiKey)
    redactor.add(apiSecret)
    this.#redactor = { key: apiKey, secret: apiSecret, redactor }
    return redactor
  }

  /**
   * One GET of operations 1–3 with the two credential headers, retried per
   * the policy. Each attempt waits out a `Retry-After` pause any request to
   * the service received, and reports how it went to the in-flight limit.
   */
  async #get(path: string, signal?: AbortSignal): Promise<unknown> {
    return parseJsonBody(await this.#getBody(path, signal))
  }

  /** {@link #get} up to the answer's bytes (every check and retry, no decoding nor parsing). */
  async #getBody(path: string, signal?: AbortSignal): Promise<JsonBody> {
    const { apiKey, apiSecret } = await this.#options.credentials()
    const url = new URL(path, withSlash(this.#options.target.baseUrl)).toString()
    const timing = this.#options.timing ?? systemTiming
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const onRetry = this.#options.onRetry
    const redactor = this.#redactorFor(apiKey, apiSecret)
    const redact = (text: string): string => redactor.redact(text)
    const maxRetryAfterMs =
      this.#options.retry?.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs
    const inFlight = this.#inFlight
    const started = performance.now()
    let attempts = 0
    return withRetries(
      async (remainingMs) => {
        attempts += 1
        const asked = timing.now()
        await waitForPause(inFlight, timing, Math.min(maxRetryAfterMs, remainingMs - 1), signal)
        const sent = timing.now()
        try {
          const body = await getJsonBody(this.#options.fetch, url, {
            headers: { 'X-Service-API-Key': apiKey, Authorization: apiSecret },
            ...(signal ? { signal } : {}),
            timeoutMs: Math.max(1, Math.min(timeoutMs, remainingMs - (sent - asked))),
            ...(this.#options.maxBytes === undefined ? {} : { maxBytes: this.#options.maxBytes }),
            now: () => timing.now(),
            redact,
          })
          const done = timing.now()
          inFlight.record({ kind: 'answer', latencyMs: done - sent }, sent, done)
          return body
        } catch (error) {
          const done = timing.now()
          inFlight.record(outcomeOfError(error, done), sent, done)
          throw error
        }
      },
      {
        timing,
        ...(this.#options.retry ? { policy: this.#options.retry } : {}),
        ...(signal ? { signal } : {}),
        ...(onRetry
          ? {
              onRetry: ({ attempt, delayMs, error }) =>
                onRetry({ attempt, delayMs, code: error.code }),
            }
          : {}),
      },
    ).catch((error: unknown) => {
      if (!(error instanceof AppError)) throw error
      const data = {
        ...(error.status === undefined ? {} : { status: error.status }),
        ...(error.retryAt === undefined ? {} : { retryAt: error.retryAt }),
      }
      // After retries, a timeout says how long the whole call really took, waits included.
      if (error.code === 'timeout' && attempts > 1) {
        throw new AppError(
          'timeout',
          `The service did not answer in time: ${attempts} attempts over ${seconds(performance.now() - started)} s, each allowed at most ${seconds(timeoutMs)} s.`,
          { ...data, cause: error },
        )
      }
      // A service may echo a header back in any text of its answer; never let that reach a message
      // (the original, unredacted, is dropped rather than kept as the cause).
      const message = redact(error.message)
      if (message !== error.message) throw new AppError(error.code, message, data)
      throw error
    })
  }
}

/** `?a=1&b=2` of the defined parameters, or '' when there are none. */
function queryString(params: GuaranteeQuery | InspectionQuery): string {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}

/** `new URL(path, base)` drops the base's last segment unless it ends with a slash. */
function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`
}
