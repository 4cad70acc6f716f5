import { createRng } from './seed'

/**
 * Fault injection: the failures a real partner service and the network
 * between show, on demand, per route and by rate. A fault applies to a
 * request when its route matches, its `count` is not used up, and a seeded
 * draw falls under its `rate` — so a run with the same seed and the same
 * request order fails the same way.
 */

/** Every kind of fault the sandbox can inject. */
const FAULT_KINDS = [
  /** Wait `ms` (default 500) before answering. */
  'latency',
  /** 429 with `Retry-After` (`retryAfter` seconds, default 7; `format` seconds | date | garbage). */
  'rate_limit',
  /** A 5xx with a JSON body: `status` 500 (default), 502, 503 or 504; `retryAfter` optional. */
  'error',
  /** 502 with an HTML body, as a proxy in front of the service sends it. */
  'html502',
  /** Close the connection without answering (connection reset). */
  'reset',
  /** Declare the full length, send half of the body, then close the connection. */
  'truncate',
  /** A complete body that is not valid JSON, labelled JSON. */
  'invalid_json',
  /** A JSON body labelled `text/html` (`type` to choose another). */
  'wrong_type',
  /** Valid JSON of the wrong shape: `data: null` in the envelope, an object for the brand list. */
  'wrong_shape',
  /** Headers at once, then the body `bytes` (default 64) at a time every `ms` (default 250). */
  'slow_body',
  /** The list ignores `page`: every request gets page 1 again. */
  'ignore_page',
  /** Records appear between requests: `total` grows by `step` (default 3) per request, up to `amount` (default 12). */
  'total_drift',
  /** Pages after the first come back empty while `total` still says more. */
  'empty_page',
  /** `total: 0` while the page still carries records. */
  'zero_total',
  /** Every fourth item (positions 1, 5, 9, …) lacks `field` (default `productName`). */
  'missing_field',
  /** Every item gains `count` (default 50) unknown fields plus `__proto__` and `constructor` keys. */
  'extra_fields',
  /** The page ignores the size cap and is padded to about `mb` megabytes (default 60). */
  'oversize',
  /** 302 to `location` (default: the static host, another origin). */
  'redirect',
  /**
   * An error `status` (default 400) whose JSON message and `X-Request-Id` echo the API key and
   * secret the request sent, altered by `form` (see {@link ECHO_FORMS}; default `exact`).
   */
  'echo_key',
  /** The JSON body encoded in a legacy `charset` (default `euc-kr`) and labelled so. */
  'legacy_charset',
  /**
   * The whole answer, status line and headers included, `bytes` (default 1) at a time every
   * `ms` (default 1000), whatever the answer is (an error too): a service that takes minutes.
   */
  'trickle',
] as const

/**
 * The altered forms `echo_key` sends a credential back in.
 * @internal
 */
export const ECHO_FORMS = [
  'exact',
  'upper',
  'lower',
  'base64',
  'base64url',
  'url',
  'hex',
  'prefixed',
  'run',
] as const
/** One of {@link ECHO_FORMS}. */
export type EchoForm = (typeof ECHO_FORMS)[number]

/** One of {@link FAULT_KINDS}. */
export type FaultKind = (typeof FAULT_KINDS)[number]

/** Routes a fault can target; `api` means all three JSON operations. */
const FAULT_ROUTES = ['api', 'guarantee', 'inspection', 'brand'] as const
/** One of {@link FAULT_ROUTES}. */
export type FaultRoute = (typeof FAULT_ROUTES)[number]

/** A fault to inject. */
export interface Fault {
  readonly kind: FaultKind
  /** Which operation it hits (default `api`: guarantee, inspection and brand lists). */
  readonly route?: FaultRoute
  /** Probability per matching request, 0 to 1 (default 1). */
  readonly rate?: number
  /** Hit at most this many requests, then stop (default: no limit). */
  readonly count?: number
  readonly ms?: number
  readonly status?: number
  readonly retryAfter?: number
  readonly format?: 'seconds' | 'date' | 'garbage'
  readonly bytes?: number
  readonly step?: number
  readonly amount?: number
  readonly field?: string
  readonly mb?: number
  readonly type?: string
  readonly location?: string
  readonly form?: EchoForm
  readonly charset?: string
}

const NUMBER_KEYS = ['rate', 'count', 'ms', 'status', 'retryAfter', 'bytes', 'step', 'amount', 'mb']
const TEXT_KEYS = ['format', 'field', 'type', 'location', 'form', 'charset']

/**
 * Parses a `--fault` flag: `kind[@route][:key=value,key=value]`, e.g.
 * `html502@guarantee:count=2`, `rate_limit:retryAfter=30,format=date`,
 * `latency:ms=200,rate=0.5`. Throws a readable message on a bad spec.
 */
export function parseFaultSpec(spec: string): Fault {
  const match = /^([a-z0-9_]+)(?:@([a-z]+))?(?::(.*))?$/.exec(spec.trim())
  if (!match)
    throw new Error(`Bad --fault ${JSON.stringify(spec)}: expected kind[@route][:key=value,…]`)
  const [, kind = '', route, options] = match
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new Error(`Unknown fault kind ${JSON.stringify(kind)}; known: ${FAULT_KINDS.join(', ')}`)
  }
  if (route !== undefined && !(FAULT_ROUTES as readonly string[]).includes(route)) {
    throw new Error(
      `Unknown fault route ${JSON.stringify(route)}; known: ${FAULT_ROUTES.join(', ')}`,
    )
  }
  const fault: Record<string, unknown> = { kind, ...(route ? { route } : {}) }
  for (const pair of options ? options.split(',') : []) {
    const eq = pair.indexOf('=')
    const key = eq < 0 ? pair : pair.slice(0, eq)
    const value = eq < 0 ? '' : pair.slice(eq + 1)
    if (NUMBER_KEYS.includes(key)) {
      const number = Number(value)
      if (value === '' || !Number.isFinite(number) || number < 0) {
        throw new Error(`Bad --fault ${JSON.stringify(spec)}: ${key} must be a number ≥ 0`)
      }
      fault[key] = number
    } else if (TEXT_KEYS.includes(key)) {
      fault[key] = value
    } else {
      throw new Error(`Bad --fault ${JSON.stringify(spec)}: unknown option ${JSON.stringify(key)}`)
    }
  }
  const rate = fault.rate as number | undefined
  if (rate !== undefined && rate > 1)
    throw new Error(`Bad --fault ${JSON.stringify(spec)}: rate must be 0 to 1`)
  const format = fault.format as string | undefined
  if (format !== undefined && !['seconds', 'date', 'garbage'].includes(format)) {
    throw new Error(`Bad --fault ${JSON.stringify(spec)}: format must be seconds, date or garbage`)
  }
  const form = fault.form as string | undefined
  if (form !== undefined && !(ECHO_FORMS as readonly string[]).includes(form)) {
    throw new Error(`Bad --fault ${JSON.stringify(spec)}: form must be ${ECHO_FORMS.join(', ')}`)
  }
  return fault as unknown as Fault
}

/** The faults in force and their counters; `draw` decides which apply to one request. */
export class FaultState {
  #faults: readonly Fault[] = []
  #hits: number[] = []
  #rng: () => number
  readonly #seed: number

  constructor(seed: number, faults: readonly Fault[] = []) {
    this.#seed = seed
    this.#rng = createRng(seed)
    this.set(faults)
  }

  /** Replaces the faults in force and resets their counters and random draws. */
  set(faults: readonly Fault[]): void {
    this.#faults = [...faults]
    this.#hits = faults.map(() => 0)
    this.#rng = createRng(this.#seed ^ 0x5eed)
  }

  /** The faults in force. */
  get faults(): readonly Fault[] {
    return this.#faults
  }

  /** The faults that apply to one request on `route`, at most one of each kind (the first listed wins). */
  draw(route: Exclude<FaultRoute, 'api'>): Map<FaultKind, Fault> {
    const hit = new Map<FaultKind, Fault>()
    this.#faults.forEach((fault, index) => {
      const target = fault.route ?? 'api'
      if (target !== 'api' && target !== route) return
      if (hit.has(fault.kind)) return
      if (fault.count !== undefined && (this.#hits[index] ?? 0) >= fault.count) return
      if (fault.rate !== undefined && fault.rate < 1 && this.#rng() >= fault.rate) return
      this.#hits[index] = (this.#hits[index] ?? 0) + 1
      hit.set(fault.kind, fault)
    })
    return hit
  }

  /** How many requests the faults of `kind` have hit so far (`total_drift` grows per hit). */
  hits(kind: FaultKind): number {
    let total = 0
    this.#faults.forEach((fault, index) => {
      if (fault.kind === kind) total += this.#hits[index] ?? 0
    })
    return total
  }
}
