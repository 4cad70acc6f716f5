import type { ErrorReason, TeamErrorCode, TeamErrorData } from '../../shared/errors'

/**
 * The one error class of the team client and the administrator's command. It
 * carries a code from {@link TeamErrorCode}; messages never hold a password.
 */
export class TeamError extends Error {
  readonly code: TeamErrorCode
  readonly sqlState: string | undefined
  /** Why, for the renderer's words (`ErrorData.reason`), where the client knows. */
  readonly reason: ErrorReason | undefined
  readonly values: Readonly<Record<string, string | number>> | undefined

  constructor(
    code: TeamErrorCode,
    message: string,
    options: {
      sqlState?: string | undefined
      cause?: unknown
      reason?: ErrorReason | undefined
      values?: Readonly<Record<string, string | number>> | undefined
    } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'TeamError'
    this.code = code
    this.sqlState = options.sqlState
    this.reason = options.reason
    this.values = options.values
  }

  /** The plain-data form. */
  toData(): TeamErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.sqlState === undefined ? {} : { sqlState: this.sqlState }),
      ...(this.reason === undefined ? {} : { reason: this.reason }),
      ...(this.values === undefined ? {} : { values: this.values }),
    }
  }
}

/** Errors that another attempt, later, may get past; the others need a person. */
export function isRetryable(error: TeamError): boolean {
  return error.code === 'team_unreachable' || error.code === 'team_server'
}

/**
 * The server refused an event for what it holds, not for who sent it or how:
 * a data exception (class 22: an escape or character it cannot store, a value
 * out of range), an integrity constraint (class 23: a check), a program limit
 * (class 54: too long). Sending it again changes nothing, so the event is set
 * aside and the rest go on.
 */
export function isContentRefusal(error: TeamError): boolean {
  const state = error.sqlState
  return state !== undefined && /^(22|23|54)/.test(state)
}

/** Node's TLS verification failures (`tls.connect` error codes). */
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
])

/** Socket-level failures: the server is not there (now). */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
])

/** How long a connection to the team server is given unless the config says otherwise. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000

/** Host name lookups that failed: the name is not known (now). */
const UNKNOWN_HOST_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN'])

/** Where a connection was being opened, so an unreachable server is named by its address. */
export interface TeamAddress {
  readonly host: string
  readonly port: number
  /** How long the connection was given, in milliseconds. */
  readonly connectTimeoutMs?: number | undefined
}

/** `HOST:PORT`, with an IPv6 host in brackets. */
function addressText(where: TeamAddress): string {
  return `${where.host.includes(':') ? `[${where.host}]` : where.host}:${where.port}`
}

/**
 * Why a server could not be reached while connecting to `where`: nothing
 * listens there (refused), it did not answer in time, or its name is not
 * known; undefined for anything else (a reset, a lost connection).
 */
function unreachableReason(
  code: string | undefined,
  text: string,
  where: TeamAddress,
): Pick<TeamError, 'reason' | 'values' | 'message'> | undefined {
  const address = addressText(where)
  if (code === 'ECONNREFUSED') {
    return {
      reason: 'team_no_answer',
      values: { address },
      message: `No server answers at ${address}.`,
    }
  }
  if (code !== undefined && UNKNOWN_HOST_CODES.has(code)) {
    return {
      reason: 'team_host_unknown',
      values: { host: where.host },
      message: `The team server's host ${where.host} is not found (${code}).`,
    }
  }
  if (code === 'ETIMEDOUT' || /timeout/i.test(text)) {
    const seconds = Math.round((where.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS) / 1000)
    return {
      reason: 'team_timeout',
      values: { address, seconds },
      message: `The server at ${address} did not answer within ${seconds} seconds.`,
    }
  }
  return undefined
}

/**
 * Classifies what `pg` or a socket threw: SQLSTATE classes first
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html), then
 * Node's socket and TLS codes, then the few plain messages `pg` throws.
 * `where` is given while a connection is being opened: a server that cannot
 * be reached then says why in words the renderer has (nothing answers at
 * `HOST:PORT`, no answer in time, a host name not found), never the password.
 */
export function toTeamError(error: unknown, where?: TeamAddress): TeamError {
  if (error instanceof TeamError) return error
  const code = (error as { code?: unknown } | null)?.code
  const text = error instanceof Error ? error.message : String(error)
  const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined
  if (sqlState !== undefined && !UNREACHABLE_CODES.has(sqlState)) {
    return fromSqlState(sqlState, text, error)
  }
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) {
    return new TeamError('team_tls', `The server's certificate was not accepted (${code}).`, {
      cause: error,
    })
  }
  const why =
    where === undefined
      ? undefined
      : unreachableReason(typeof code === 'string' ? code : undefined, text, where)
  if (why !== undefined) {
    return new TeamError('team_unreachable', why.message, {
      cause: error,
      reason: why.reason,
      values: why.values,
    })
  }
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) {
    return new TeamError('team_unreachable', `The team server cannot be reached (${code}).`, {
      cause: error,
    })
  }
  if (/does not support SSL/i.test(text)) {
    return new TeamError(
      'team_tls_required',
      'The team server offers no TLS, and the app requires it for a server that is not on this machine.',
      { cause: error },
    )
  }
  if (/client password must be a string|password authentication/i.test(text)) {
    return new TeamError('team_auth', 'The team server needs the role\u2019s password.', {
      cause: error,
    })
  }
  if (/Connection terminated|timeout|Client was closed|not queryable/i.test(text)) {
    return new TeamError('team_unreachable', 'The connection to the team server was lost.', {
      cause: error,
    })
  }
  return new TeamError('team_server', 'The team server answered unexpectedly.', { cause: error })
}

function fromSqlState(sqlState: string, text: string, cause: unknown): TeamError {
  const options = { sqlState, cause }
  if (sqlState === '28000' && /no encryption/i.test(text)) {
    return new TeamError(
      'team_tls_required',
      'The team server accepts only TLS connections from this address.',
      options,
    )
  }
  if (sqlState === '28P01' || sqlState === '28000') {
    return new TeamError('team_auth', 'The team server refused the role or its password.', options)
  }
  // Only staff may connect to the team's database (server migration 4).
  if (sqlState === '42501' && /permission denied for database/i.test(text)) {
    return new TeamError(
      'team_not_member',
      'This role is not a member of a team, so it may not connect to the team database.',
      options,
    )
  }
  if (sqlState === '42501' || /^(22|23|54)/.test(sqlState)) {
    return new TeamError('team_refused', 'The team server refused the write.', options)
  }
  if (sqlState === '42P01' || sqlState === '3F000' || sqlState === '42883') {
    return new TeamError(
      'team_schema_old',
      'The team server has no team schema yet: the administrator runs the migrations.',
      options,
    )
  }
  if (sqlState.startsWith('08') || sqlState === '57P01' || sqlState === '57P03') {
    return new TeamError('team_unreachable', 'The team server is not available now.', options)
  }
  return new TeamError('team_server', 'The team server answered with an error.', options)
}
