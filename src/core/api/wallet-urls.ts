import { pathSegment, type ServiceTarget } from './service-target'

/**
 * URL builders for the two wallet-link operations. The spec gives their
 * paths but not where `token` and `redirectUri` travel; since both
 * operations are GETs opened in a browser window, they go in the query
 * string (an assumption, written down in the README). Every path segment is
 * percent-encoded, so a member ID with `/`, `?` or `#` cannot change the
 * path. The API key sits in the path: these URLs are secrets themselves and
 * must be redacted before any log (see `redact.ts`).
 */

function walletBase(target: ServiceTarget, apiKey: string, refUserId: string): URL {
  const base = target.baseUrl.endsWith('/') ? target.baseUrl : `${target.baseUrl}/`
  const path = [
    'partner',
    pathSegment(target.partnerId, 'partnerId'),
    pathSegment(apiKey, 'The API key'),
    'wallet',
    pathSegment(refUserId, 'The member ID'),
  ].join('/')
  return new URL(path, base)
}

/** Operation 4: `{base_url}/partner/:partnerId/:apiKey/wallet/:refUserId/pre-sync?redirectUri=…`. */
export function preSyncUrl(
  target: ServiceTarget,
  apiKey: string,
  refUserId: string,
  redirectUri: string,
): string {
  const url = walletBase(target, apiKey, refUserId)
  url.pathname += '/pre-sync'
  url.searchParams.set('redirectUri', redirectUri)
  return url.toString()
}

/** Operation 5: `{base_url}/partner/:partnerId/:apiKey/wallet/:refUserId/sync/:guaranteeIdx?token=…&redirectUri=…`. */
export function syncUrl(
  target: ServiceTarget,
  apiKey: string,
  refUserId: string,
  guaranteeIdx: number | string,
  token: string,
  redirectUri: string,
): string {
  const url = walletBase(target, apiKey, refUserId)
  url.pathname += `/sync/${pathSegment(String(guaranteeIdx), 'guaranteeIdx')}`
  url.searchParams.set('token', token)
  url.searchParams.set('redirectUri', redirectUri)
  return url.toString()
}
