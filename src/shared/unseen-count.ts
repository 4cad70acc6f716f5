import type { PostedNotification } from './notifications'

/**
 * The unseen count the window title (`(3) Appraisal Desk`), the dock or
 * taskbar badge and the tray show: the records of the notifications posted
 * while staff were not looking at the window (a notification about no record,
 * such as the sync's health, counts one). Looking at the window again clears it.
 */
export function unseenAfter(count: number, notification: PostedNotification): number {
  return count + Math.max(1, notification.count)
}

/** The window title with the unseen count before it, or the title alone. */
export function titleWithCount(count: number, title: string): string {
  return count > 0 ? `(${count.toString()}) ${title}` : title
}
