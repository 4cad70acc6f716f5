/**
 * The address the renderer puts in `<img src>` for a card image: the remote
 * URL travels base64url-encoded in the path, and main (or the web host)
 * fetches, checks and caches it. `base` is `card://image` in Electron and
 * `/card` in the web host.
 */
export function cardImageSrc(base: string, remoteUrl: string): string {
  const bytes = new TextEncoder().encode(remoteUrl)
  let binary = ''
  for (const byte of bytes) binary += String.fromCharCode(byte)
  const encoded = btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
  return `${base}/u/${encoded}`
}
