/**
 * The browser's notification permission (the web host shows notifications
 * with the page's `Notification`; Electron's shell with its own).
 */
export type BrowserPermission = NotificationPermission | 'unsupported'

/** The page's permission now. */
export function browserPermission(): BrowserPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission
}

/** Asks the browser's permission (a prompt only while it is `default`); answers the outcome. */
export async function askBrowserPermission(): Promise<BrowserPermission> {
  if (typeof Notification === 'undefined') return 'unsupported'
  if (Notification.permission !== 'default') return Notification.permission
  try {
    return await Notification.requestPermission()
  } catch {
    return Notification.permission
  }
}
