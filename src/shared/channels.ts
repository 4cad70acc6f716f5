/**
 * The names of every invoke channel and every main→renderer event, as plain
 * values. The preload imports only this file (no schema library), and
 * `contract.ts` proves at compile time that it lists exactly the channels
 * that have schemas and result types.
 */
export const CHANNEL_NAMES = [
  'app.info',
  'brands.search',
  'brands.refresh',
  'sync.start',
  'sync.cancel',
  'sync.status',
  'sync.rejected',
  'inspections.query',
  'guarantees.query',
  'reviews.set',
  'reviews.setMany',
  'reviews.undo',
  'assignments.set',
  'changes.list',
  'changes.markSeen',
  'changes.unseen',
  'changes.export',
  'records.timeline',
  'records.locate',
  'aging.counts',
  'lists.export',
  'profiles.list',
  'profiles.save',
  'profiles.setSecret',
  'profiles.remove',
  'profiles.select',
  'profiles.test',
  'settings.get',
  'images.status',
  'wallet.start',
  'wallet.cancel',
  'wallet.history',
  'wallet.export',
  'settings.set',
  'reconcile.list',
  'reconcile.export',
  'dashboard.get',
  'team.test',
  'team.status',
  'team.setPassword',
  'team.ackChanged',
  'reviews.history',
  'team.members',
  'team.setAside',
  'team.discard',
  'presence.set',
  'presence.list',
  'views.list',
  'views.save',
  'views.remove',
  'views.setLast',
  'live.status',
  'live.pause',
  'live.resume',
  'live.signal',
  'live.accounts',
  'lock.status',
  'lock.now',
  'lock.activity',
  'lock.unlock',
  'lock.setPin',
  'lock.removePin',
  'lock.resetWithSecret',
  'lock.resetByErasing',
] as const

/** Events main sends to the renderer. */
const EVENT_NAMES = [
  'data.changed',
  'sync.progress',
  'profiles.changed',
  'wallet.outcome',
  'command.run',
  'team.status',
  'wallet.historyChanged',
  'live.status',
  'live.accounts',
  'notification.posted',
  'notification.open',
  'lock.changed',
  'presence.changed',
] as const

/** An invoke channel name (`domain.action`). */
export type ChannelName = (typeof CHANNEL_NAMES)[number]
/** An event name. */
export type EventName = (typeof EVENT_NAMES)[number]

/** Membership test for untrusted strings. */
export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === 'string' && (CHANNEL_NAMES as readonly string[]).includes(value)
}

/** Membership test for untrusted strings. */
export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && (EVENT_NAMES as readonly string[]).includes(value)
}
