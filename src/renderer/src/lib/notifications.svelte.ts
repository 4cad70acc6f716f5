import { createContext } from 'svelte'
import type { PostedNotification } from '../../../shared/notifications'
import { unseenAfter } from '../../../shared/unseen-count'
import type { Client } from './client'
import type { Navigation } from './navigation'

/** Longest wait for the desk to show the account a notification switched to. */
const SWITCH_WAIT_MS = 5000

/** What the page needs of the browser: a stand-in in tests. */
export interface NotificationPage {
  readonly window: Window
  /** The browser's `Notification`, absent where there is none. */
  readonly Notification: typeof Notification | undefined
}

/**
 * Notifications as the window shows them (docs/live.md "Notifications"):
 * core decides and posts `notification.posted`; in the web host the page
 * shows each with the browser's `Notification` (Electron's shell shows its
 * own and sends `notification.open` when one is clicked). A click focuses
 * the window and opens the record (one) or the Changes view on those records
 * (several); one about another account kept current (every-account mode)
 * switches to it first. The unseen count (the window title's) grows with what is posted
 * while the window is not in front, and clears when staff come back to it.
 * It lives outside the app lock's gate: while locked, notifications still
 * show (core gives them counts only) and a click opens its record once the
 * desk is shown again.
 */
export class NotificationCenter {
  unseen = $state(0)
  readonly #client: Client
  #navigation: Navigation | null = null
  /** A notification clicked while the desk was not shown (the app locked): opened when it is. */
  #pending: PostedNotification | null = null
  readonly #web: boolean
  readonly #page: NotificationPage
  #attentive: boolean

  /** `web`: this page shows the notifications itself (the web host). */
  constructor(
    client: Client,
    web: boolean,
    page: NotificationPage = {
      window,
      Notification: typeof Notification === 'undefined' ? undefined : Notification,
    },
  ) {
    this.#client = client
    this.#web = web
    this.#page = page
    this.#attentive = this.#looking()
  }

  /** Follows the posted notifications and the window's focus; returns the cleanup. */
  connect(): () => void {
    const win = this.#page.window
    const offPosted = this.#client.on('notification.posted', (notification) => {
      if (!this.#attentive) this.unseen = unseenAfter(this.unseen, notification)
      if (this.#web) this.#show(notification)
    })
    const offOpen = this.#client.on('notification.open', (notification) => {
      void this.open(notification)
    })
    const focus = (): void => {
      this.#attentive = this.#looking()
      if (this.#attentive) this.unseen = 0
    }
    const blur = (): void => {
      this.#attentive = false
    }
    win.addEventListener('focus', focus)
    win.addEventListener('blur', blur)
    win.document.addEventListener('visibilitychange', focus)
    return () => {
      offPosted()
      offOpen()
      win.removeEventListener('focus', focus)
      win.removeEventListener('blur', blur)
      win.document.removeEventListener('visibilitychange', focus)
    }
  }

  /**
   * The desk's navigation, while the desk is shown (the app unlocked): a
   * click that came while it was not is opened now. Returns the cleanup.
   */
  attach(navigation: Navigation): () => void {
    this.#navigation = navigation
    const pending = this.#pending
    this.#pending = null
    if (pending) void this.open(pending)
    return () => {
      if (this.#navigation === navigation) this.#navigation = null
    }
  }

  /** Opens what a notification is about: its record, or the Changes view on its records. */
  async open(notification: PostedNotification): Promise<void> {
    this.unseen = 0
    const navigation = this.#navigation
    if (!navigation) {
      this.#pending = notification
      return
    }
    // About another account kept current (every-account mode): switch to it first.
    if (notification.account && !(await this.#switchTo(notification.account.id, navigation))) return
    const [only, ...others] = notification.records
    if (only === undefined) return
    if (others.length === 0) {
      const shown = await navigation
        .openRecord(only.resource, only.idx, 'notification')
        .catch(() => false)
      // A record its list no longer shows is still in the feed.
      if (shown) return
    }
    navigation.openChanges(notification.records)
  }

  /** Makes `id` the active account unless it is; false when the switch failed. */
  async #switchTo(id: string, navigation: Navigation): Promise<boolean> {
    const info = await this.#client.attempt('app.info', {})
    if (!info.ok) return false
    if (info.value.profile.id === id) return true
    const shown = navigation.nextProfile()
    const switched = await this.#client.attempt('profiles.select', { id })
    if (!switched.ok) return false
    // The desk redraws its screens for the account; a desk that never says so does not hold the click.
    await Promise.race([shown, new Promise((resolve) => setTimeout(resolve, SWITCH_WAIT_MS))])
    return true
  }

  #looking(): boolean {
    const doc = this.#page.window.document
    return doc.visibilityState === 'visible' && doc.hasFocus()
  }

  #show(notification: PostedNotification): void {
    const Browser = this.#page.Notification
    if (Browser?.permission !== 'granted') return
    const shown = new Browser(notification.title, { body: notification.body, tag: notification.id })
    shown.addEventListener('click', () => {
      this.#page.window.focus()
      shown.close()
      void this.open(notification)
    })
  }
}

const [getNotifications, provideNotifications] = createContext<NotificationCenter>()

/** Provides the notification center to the component tree (App, outside the lock's gate). */
export const setNotifications = provideNotifications

/** The notification center of the nearest ancestor that set one. */
export const useNotifications = getNotifications
