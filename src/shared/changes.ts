import type { PagedResourceName } from './resources'
import type { GuaranteeState } from './domain'

/**
 * The changes feed, the status timeline and aging as the renderer sees
 * them (channels `changes.list`, `changes.markSeen`, `changes.unseen`,
 * `records.timeline`, `aging.counts`; docs/store-and-sync.md "Changes
 * feed and aging").
 */

/** What a sync found changed about one record, or `baseline` for a list's first full sync. */
export const CHANGE_KINDS = [
  'baseline',
  'new',
  'status',
  'result',
  'state',
  'gone',
  'back',
  'fields',
  'mention',
] as const
/** One of {@link CHANGE_KINDS}. */
export type ChangeKind = (typeof CHANGE_KINDS)[number]

/** One field's value before and after a sync (null: none). */
export interface FieldChange {
  /** The field's API name (`modifiedAt`, `refOrderId`, …). */
  readonly field: string
  readonly before: string | number | null
  readonly after: string | number | null
}

/**
 * What a change entry says beyond its kind. A record's changes found by one
 * sync are one entry: its kind is the weightiest of them (a result, a
 * guarantee's state, a status, back from gone, other fields: in that order)
 * and `also` holds the others (a delivery's status beside its result, the
 * modification time beside a status), so the feed stays quiet.
 */
export type ChangeDetail = ChangeFacts & { readonly also?: readonly ChangeFacts[] }

/** One kind of change of a record (an entry's detail, or one of its `also`). */
export type ChangeFacts =
  /** `baseline`: the records the list held when its first full sync completed. */
  | { readonly kind: 'baseline'; readonly records: number }
  /** `new`: the record's status when it arrived (null: none). */
  | { readonly kind: 'new'; readonly status: string | null }
  /** `status` (inspections, and guarantees with a label of no known state) and `result`. */
  | {
      readonly kind: 'status' | 'result'
      readonly before: string | null
      readonly after: string | null
    }
  /** `state`: a guarantee's issuance state moved; its labels too. */
  | {
      readonly kind: 'state'
      readonly before: GuaranteeState | null
      readonly after: GuaranteeState | null
      readonly beforeLabel: string
      readonly afterLabel: string
    }
  /** `gone` from the service (a complete full pass no longer returned it), or `back` again. */
  | { readonly kind: 'gone' | 'back' }
  /** `fields`: any other field changed, each with its old and new value. */
  | { readonly kind: 'fields'; readonly fields: readonly FieldChange[] }
  /** `mention`: another member's note mentions this member (docs/team.md "Mentions"). */
  | { readonly kind: 'mention'; readonly by: string; readonly note: string }

/** One entry of the changes feed. */
export interface ChangeEntry {
  /** Increasing: a newer entry has a larger id. */
  readonly id: number
  readonly resource: PagedResourceName
  /** The record to open (`inspections.get`/`guarantees.get` by idx); null for `baseline`. */
  readonly idx: number | null
  readonly kind: ChangeKind
  readonly detail: ChangeDetail
  /** The sync that found it: its id and start time (ISO). */
  readonly syncId: string
  readonly at: string
  /** Marked seen by `changes.markSeen`. */
  readonly seen: boolean
  /** A notification told staff about it (this session; docs/live.md). */
  readonly notified?: boolean
}

/** One page of the feed, newest first. */
export interface ChangePage {
  readonly entries: readonly ChangeEntry[]
  /** Pass as `before` for the next (older) page; null after the last. */
  readonly nextBefore: number | null
  /** Unseen entries of the whole feed (not only the filter's). */
  readonly unseen: number
}

/** One status of a record's timeline. */
export interface TimelineStatus {
  /** The status label (null: none). */
  readonly status: string | null
  /** When this status was first seen locally (ISO; the baseline's time for statuses held then). */
  readonly firstSeen: string
  /** The sync that first saw it. */
  readonly syncId: string
  /** True when seen at the list's baseline (the first full sync), not after it. */
  readonly baseline: boolean
}

/** A record's statuses in the order they were first seen, and its feed entries. */
export interface RecordTimeline {
  readonly resource: PagedResourceName
  readonly idx: number
  readonly statuses: readonly TimelineStatus[]
  /** Since when its current status holds (ISO), or null when the record is gone or unknown. */
  readonly currentSince: string | null
  /**
   * True when `currentSince` is only the service's time of the record's last
   * change (first seen in this status): it holds it at least since then.
   */
  readonly currentSinceBound: boolean
  /** Its entries in the feed, oldest first. */
  readonly changes: readonly ChangeEntry[]
}

/**
 * Where a listed record is found (`records.locate`): what its list is
 * searched by to show it alone, or nearly (an inspection's number; a
 * guarantee's registration day, the service's local time).
 */
export interface RecordPlace {
  readonly resource: PagedResourceName
  readonly idx: number
  /** `YYYY-MM-DD HH:MM:SS` as the service sent it; null when it sent none. */
  readonly registeredAt: string | null
  /** An inspection's number; null for a guarantee. */
  readonly inspectionNum: string | null
}

/** One aging threshold: records of a list in a status for at least `days` days. */
export interface AgingCount {
  readonly rule: AgingRule
  readonly resource: PagedResourceName
  /** The status label the rule watches. */
  readonly status: string
  readonly days: number
  /** Records (not gone) in that status since at least `days` days before now. */
  readonly count: number
}

/** An aging rule: a guarantee waiting to be issued, or an inspection in shipping. */
export type AgingRule = 'guaranteeReady' | 'inspectionShipping'

/** The counts of records flagged by each aging rule. */
export interface AgingCounts {
  /** Now, as the counts were taken (ISO). */
  readonly at: string
  readonly rules: readonly AgingCount[]
}

/** The aging thresholds' defaults in days (settings `agingDays`). */
export const DEFAULT_AGING_DAYS: Readonly<Record<AgingRule, number>> = {
  guaranteeReady: 3,
  inspectionShipping: 7,
}

/** The largest aging threshold a setting takes, in days. */
export const MAX_AGING_DAYS = 365
