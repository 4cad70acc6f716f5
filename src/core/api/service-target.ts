import { AppError } from '../app-error'

/** The service coordinates of a profile; no secret here. Used by the client and the wallet URLs. */
export interface ServiceTarget {
  readonly baseUrl: string
  readonly partnerId: string
}

/**
 * One percent-encoded path segment. Empty, `.` and `..` are refused: URL
 * parsing resolves them (even as `%2e`) and would move the request to
 * another path.
 */
export function pathSegment(value: string, name: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw new AppError('invalid_argument', `${name} cannot be used in an address.`)
  }
  return encodeURIComponent(value)
}
