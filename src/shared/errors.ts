/**
 * Error codes of the team server connection (docs/team.md); part of
 * {@link ERROR_CODES}, so a team error travels like any other.
 */
const TEAM_ERROR_CODES = [
  /** The server refused the login role or its password. */
  'team_auth',
  /** One side requires TLS and the other offers a plain connection. */
  'team_tls_required',
  /** The server's certificate failed verification (untrusted, expired, wrong host). */
  'team_tls',
  /** The server cannot be reached (DNS, refused, reset, timed out). */
  'team_unreachable',
  /** The server's schema is older than the app understands: the administrator migrates. */
  'team_schema_old',
  /** The server's schema is newer than the app understands: update the app. */
  'team_schema_new',
  /** The login role is no member of a team, or its team is not granted this partner. */
  'team_not_member',
  /** The server refused a write (row-level security or a check). */
  'team_refused',
  /** Any other answer of the server. */
  'team_server',
] as const

/** One of {@link TEAM_ERROR_CODES}. */
export type TeamErrorCode = (typeof TEAM_ERROR_CODES)[number]

/**
 * Error codes are a closed union: every handler answers with one of them and
 * the renderer switches on them exhaustively. Messages never carry a secret.
 */
export const ERROR_CODES = [
  /** The arguments of an IPC call failed the channel's schema. */
  'invalid_argument',
  /** The channel does not exist. */
  'unknown_channel',
  /** The caller is not the app's own page (a foreign frame or origin). */
  'forbidden_sender',
  /** The service rejected the API key or secret (401). */
  'auth',
  /** The key is valid but not for this partner or resource (403). */
  'forbidden',
  /** 404 from the service. */
  'not_found',
  /** 400 from the service: a parameter it does not accept. */
  'bad_request',
  /** 429 from the service. */
  'rate_limited',
  /** 5xx from the service. */
  'server',
  /** DNS failure, refused or reset connection, truncated body. */
  'network',
  /** The per-request or overall deadline passed. */
  'timeout',
  /** The TLS handshake failed (self-signed, expired, wrong host). */
  'tls',
  /** The service answered something that is not the documented shape. */
  'bad_response',
  /** A body or image larger than the cap. */
  'too_large',
  /** The service returned the same page again instead of the next one. */
  'pagination_stuck',
  /** The user or the app cancelled the operation. */
  'cancelled',
  /** The profile has no stored API key or secret. */
  'no_credentials',
  /** No OS keychain is reachable (no Secret Service, no D-Bus). */
  'keychain_unavailable',
  /** The keychain is locked, or the unlock prompt was cancelled or timed out. */
  'keychain_locked',
  /** The local cache file was unreadable and has been rebuilt. */
  'store_corrupt',
  /** The disk is full. */
  'disk_full',
  /** The local cache is locked by another copy of the app. */
  'store_busy',
  /**
   * The app is locked (docs/security.md "The app lock"): data channels refuse
   * until the PIN is entered; a wrong PIN within a wait carries `retryAt`.
   */
  'locked',
  /** Anything else; the message is generic and the details are in the log. */
  'internal',
  ...TEAM_ERROR_CODES,
] as const

/** One of {@link ERROR_CODES}. */
export type ErrorCode = (typeof ERROR_CODES)[number]

/**
 * Why an error happened, where the code alone does not say what to do: core
 * names the reason (and its values), the renderer words it from the message
 * catalogue (`error.reason.<reason>` and `error.reasonHint.<reason>`), so
 * the user reads it in the window's language.
 */
export const ERROR_REASONS = [
  /** The web host serves the Sandbox profile only (started without --other-profiles). */
  'sandbox_only',
  /** The web host runs no wallet flow on a production account. */
  'production_wallet',
  /** A guarantee wallet sync without a token, and none stored for the guarantee (`idx`). */
  'no_guarantee_token',
  /** Nothing listens at the team server's host and port (`address`: `HOST:PORT`). */
  'team_no_answer',
  /** The team server's host and port did not answer within `seconds` (`address`). */
  'team_timeout',
  /** The team server's host name (`host`) is not found (DNS). */
  'team_host_unknown',
  /** The profile has a team server but no password is stored for it. */
  'team_no_password',
] as const

/** One of {@link ERROR_REASONS}. */
export type ErrorReason = (typeof ERROR_REASONS)[number]

/** A team error as plain data (never a password). */
export interface TeamErrorData {
  readonly code: TeamErrorCode
  readonly message: string
  /** The server's SQLSTATE, when it answered with one. */
  readonly sqlState?: string
  /** Why, where the client knows (nothing answers at the address, …); see {@link ERROR_REASONS}. */
  readonly reason?: ErrorReason
  readonly values?: Readonly<Record<string, string | number>>
}

/** The error half of every IPC answer. */
export interface ErrorData {
  readonly code: ErrorCode
  /** A short, secret-free description; the renderer shows its own text per code and this as detail. */
  readonly message: string
  /** HTTP status of the service's answer, when there was one. */
  readonly status?: number
  /** For `rate_limited`: when the service said to come back (ISO time). */
  readonly retryAt?: string
  /** Why, where core knows (the renderer words it); see {@link ERROR_REASONS}. */
  readonly reason?: ErrorReason
  /** The values the reason's words name (a guarantee's idx, …). */
  readonly values?: Readonly<Record<string, string | number>>
}

/** What every handler answers, over Electron IPC and over the web host alike. */
export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorData }
