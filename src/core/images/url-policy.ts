import { LOOPBACK_HOSTS } from '../../shared/profile-schemas'
import { AppError } from '../app-error'

/**
 * Which card-image URLs may be fetched (docs/faults.md F32). Only the profile's
 * image host, by exact origin. A real service's host must be https; plain
 * http is allowed only for a loopback host, which only the built-in sandbox
 * profile uses. Everything else (`file:`, `data:`, `javascript:`, other hosts,
 * private or link-local addresses such as 169.254.169.254, user:pass@ URLs)
 * is refused before any request is made, and each redirect is checked again.
 */
export interface ImageHostPolicy {
  /** Allowed origins, e.g. `https://static.example.com`, or `http://127.0.0.1:4011` for the sandbox. */
  readonly origins: readonly string[]
}

/** Normalises and checks the policy's origins; a non-https, non-loopback origin is refused. */
export function createImageHostPolicy(origins: readonly string[]): ImageHostPolicy {
  const checked = origins.map((origin) => {
    const url = new URL(origin)
    if (
      url.protocol !== 'https:' &&
      !(url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))
    ) {
      throw new AppError(
        'invalid_argument',
        'An image host must use https (or be the local sandbox).',
      )
    }
    return url.origin
  })
  return { origins: checked }
}

/** The URL if it may be fetched under `policy`; otherwise an `invalid_argument` error. */
export function checkImageUrl(raw: string, policy: ImageHostPolicy): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new AppError('invalid_argument', 'The card image address is not a valid URL.')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppError('invalid_argument', 'Card images are fetched over http(s) only.')
  }
  if (url.username || url.password) {
    throw new AppError('invalid_argument', 'A card image address may not carry a user name.')
  }
  if (!policy.origins.includes(url.origin)) {
    throw new AppError('invalid_argument', "The card image is not on the profile's image host.")
  }
  return url
}
