import type { ConnectionOutcome, ConnectionTestResult } from '../../shared/profiles'
import type { ErrorCode } from '../../shared/errors'
import { AppError } from '../app-error'

/**
 * Turns what a brand-list call failed with into the outcome "Test
 * connection" shows: wrong key or secret, wrong partner, host unreachable,
 * TLS problem, service error, and so on.
 */
export function describeConnectionError(error: unknown): ConnectionTestResult {
  const appError =
    error instanceof AppError
      ? error
      : new AppError('internal', 'The connection test failed unexpectedly.')
  return { outcome: outcomeOf(appError.code), error: appError.toData() }
}

function outcomeOf(code: ErrorCode): ConnectionOutcome {
  switch (code) {
    case 'auth':
      return 'wrong_credentials'
    case 'forbidden':
      return 'wrong_partner'
    case 'not_found':
      return 'not_found'
    case 'network':
      return 'unreachable'
    case 'timeout':
    case 'cancelled':
      return 'timeout'
    case 'tls':
      return 'tls'
    case 'no_credentials':
      return 'no_credentials'
    case 'keychain_locked':
    case 'keychain_unavailable':
      return 'keychain'
    case 'bad_response':
    case 'bad_request':
    case 'too_large':
    case 'pagination_stuck':
      return 'bad_response'
    case 'server':
    case 'rate_limited':
    case 'invalid_argument':
    case 'unknown_channel':
    case 'forbidden_sender':
    case 'store_corrupt':
    case 'store_busy':
    case 'locked':
    case 'disk_full':
    case 'internal':
    case 'team_auth':
    case 'team_tls_required':
    case 'team_tls':
    case 'team_unreachable':
    case 'team_schema_old':
    case 'team_schema_new':
    case 'team_not_member':
    case 'team_refused':
    case 'team_server':
      return 'service_error'
  }
}
