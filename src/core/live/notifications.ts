import { randomUUID } from 'node:crypto'
import { message, type Locale } from '../../shared/i18n'
import { localTimestamp } from '../../shared/local-time'
import type { PagedResourceName } from '../../shared/resources'
import {
  AUTHENTIC_RESULT,
  type NotificationSettings,
  type PostedNotification,
} from '../../shared/notifications'
import type { ChangeRow } from './store-probe'

/**
 * What to tell staff, decided in core after each sync from what it changed
 * (docs/live.md "Notifications"): one notification per kind and sync,
 * grouped, never one per record. Kinds are an open set: the built-in ones
 * come from the changes feed, the sync's health and the daily digest; other
 * parts of the app (the team side) post theirs through {@link Notifier.notify}.
 */

/** One record a notification is about. */
export interface NotifyItem {
  readonly resource: PagedResourceName
  readonly idx: number
  /** The product name, shown when details are on. */
  readonly name: string | null
  /** The changes-feed entry that caused it, when one did. */
  readonly changeId?: number
}

/** Options of {@link Notifier}. */
export interface NotifierOptions {
  readonly settings: () => NotificationSettings
  readonly language: () => Locale
  readonly timeZone: () => string
  readonly now: () => Date
  /** Sends a decided notification to the hosts (the `notification.posted` event). */
  readonly post: (notification: PostedNotification) => void
  /** The account its notifications are about, when not the active one: titles name it. */
  readonly account?: { readonly id: string; readonly name: string }
}

/** Change-feed entries kept as notified, at most (the oldest are forgotten first). */
const MAX_NOTIFIED = 10_000

/** Decides and posts notifications. */
export class Notifier {
  readonly #options: NotifierOptions
  readonly #notified = new Set<number>()

  constructor(options: NotifierOptions) {
    this.#options = options
  }

  /** Whether a changes-feed entry was part of a posted notification (this session). */
  wasNotified(changeId: number): boolean {
    return this.#notified.has(changeId)
  }

  /**
   * The one entry point: posts one notification of `kind` about `items`
   * (grouped: the first name and how many more), unless notifications or
   * the kind are off, or it is quiet hours. Answers what was posted.
   */
  notify(
    kind: string,
    items: readonly NotifyItem[],
    title: (count: number) => string,
    body?: string,
  ): PostedNotification | null {
    const settings = this.#options.settings()
    if (!settings.enabled || settings.kinds[kind] === false) return null
    if (items.length === 0 && body === undefined) return null
    if (this.#quiet(settings)) return null
    const locale = this.#options.language()
    const details = settings.details
    const first = items.find((item) => item.name)?.name ?? null
    const text =
      body ??
      (!details || first === null
        ? message(locale, 'notify.body.counts')
        : items.length === 1
          ? first
          : message(locale, 'notify.body.group', { name: first, others: items.length - 1 }))
    const account = this.#options.account
    const heading = title(items.length)
    const notification: PostedNotification = {
      id: randomUUID(),
      kind,
      at: this.#options.now().toISOString(),
      count: items.length,
      title: account
        ? message(locale, 'notify.account', { account: account.name, title: heading })
        : heading,
      body: text,
      details,
      records: items.map(({ resource, idx }) => ({ resource, idx })),
      ...(account ? { account: { id: account.id, name: account.name } } : {}),
    }
    for (const item of items) {
      if (item.changeId === undefined) continue
      this.#notified.add(item.changeId)
      if (this.#notified.size > MAX_NOTIFIED) {
        const oldest = this.#notified.values().next().value
        if (oldest !== undefined) this.#notified.delete(oldest)
      }
    }
    this.#options.post(notification)
    return notification
  }

  /**
   * The notifications of one sync's changes: a result that arrived and is
   * not `정품` (one per result label), a result that changed after it was
   * set, a guarantee cancelled. At most one per kind (and result label).
   */
  fromChanges(entries: readonly ChangeRow[]): PostedNotification[] {
    const locale = this.#options.language()
    const flagged = new Map<string, NotifyItem[]>()
    const changed: NotifyItem[] = []
    const cancelled: NotifyItem[] = []
    for (const entry of entries) {
      if (entry.idx === null) continue
      const item: NotifyItem = {
        resource: entry.resource,
        idx: entry.idx,
        name: entry.productName,
        changeId: entry.id,
      }
      if (entry.kind === 'result') {
        if (entry.before === null || entry.before === '') {
          if (entry.after !== null && entry.after !== '' && entry.after !== AUTHENTIC_RESULT) {
            flagged.set(entry.after, [...(flagged.get(entry.after) ?? []), item])
          }
        } else if (entry.after !== entry.before) {
          changed.push(item)
        }
      } else if (entry.kind === 'state' && entry.after === 'cancel') {
        cancelled.push(item)
      }
    }
    const posted: (PostedNotification | null)[] = []
    const flaggedAll = [...flagged.values()].flat()
    if (flagged.size === 1) {
      const [result] = [...flagged.keys()]
      posted.push(
        this.notify('resultFlagged', flaggedAll, (count) =>
          message(locale, 'notify.resultFlagged.title', { result: result ?? '', count }),
        ),
      )
    } else if (flagged.size > 1) {
      posted.push(
        this.notify('resultFlagged', flaggedAll, (count) =>
          message(locale, 'notify.resultFlagged.mixed', { count }),
        ),
      )
    }
    posted.push(
      this.notify('resultChanged', changed, (count) =>
        message(locale, 'notify.resultChanged.title', { count }),
      ),
      this.notify('guaranteeCancelled', cancelled, (count) =>
        message(locale, 'notify.guaranteeCancelled.title', { count }),
      ),
    )
    return posted.filter((notification) => notification !== null)
  }

  /** Whether now, in the profile's zone, falls in the quiet hours (`from` up to `to`, over midnight too). */
  #quiet(settings: NotificationSettings): boolean {
    const quiet = settings.quietHours
    if (!quiet || quiet.from === quiet.to) return false
    const time = localTimestamp(this.#options.now(), this.#options.timeZone()).slice(11, 16)
    return quiet.from < quiet.to
      ? time >= quiet.from && time < quiet.to
      : time >= quiet.from || time < quiet.to
  }
}
