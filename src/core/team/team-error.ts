import type { TeamErrorCode, TeamErrorData } from '../../shared/errors'

/**
 * The one error class of the team client and the administrator's command. It
 * carries a code from {@link TeamErrorCode}; messages never hold a password.
 */
export class TeamError extends Error {
  readonly code: TeamErrorCode
  readonly sqlState: string | undefined

  constructor(
    code: TeamErrorCode,
    message: string,
    options: { sqlState?: string | undefined; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause })
    this.name = 'TeamError'
    this.code = code
    this.sqlState = options.sqlState
  }

  /** The plain-data form. */
  toData(): TeamErrorData {
    return {
      code: this.code,
      message: this.message,
      ...(this.sqlState === undefined ? {} : { sqlState: this.sqlState }),
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

/**
 * Classifies what `pg` or a socket threw: SQLSTATE classes first
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html), then
 * Node's socket and TLS codes, then the few plain messages `pg` throws.
 */
export function toTeamError(error: unknown): TeamError {
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
