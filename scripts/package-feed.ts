/**
 * The electron-builder arguments that set the update feed from
 * `UPDATE_FEED_URL` at package time. electron-builder then writes
 * `app-update.yml` into the package's resources, which electron-updater
 * reads at run time; without the variable no feed is written and the app's
 * updater stays off (src/main/updates.ts). Only an HTTPS address is taken.
 */
export function feedArgs(env: Readonly<Record<string, string | undefined>>): string[] {
  const raw = env['UPDATE_FEED_URL']?.trim()
  if (!raw) return []
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new Error(`UPDATE_FEED_URL is not an address: ${raw}`)
  }
  if (url.protocol !== 'https:') throw new Error(`UPDATE_FEED_URL must be https: ${raw}`)
  return ['-c.publish.provider=generic', `-c.publish.url=${url.href}`]
}
