import type { DatabaseSync } from 'node:sqlite'
import { up as initial } from './0001-initial'
import { up as search } from './0002-search'
import { up as compact } from './0003-compact'
import { up as reviewBy } from './0004-review-by'
import { up as rejectedRecords } from './0005-rejected-records'
import { up as nfcText } from './0006-nfc-text'
import { up as counts } from './0007-counts'
import { up as writePath } from './0008-write-path'
import { up as pageSize } from './0009-page-size'
import { up as memberByWords } from './0010-member-by-words'
import { up as searchGrams } from './0011-search-grams'
import { up as changes } from './0012-changes'
import { up as reconcile } from './0013-reconcile'
import { up as teamOutbox } from './0014-team-outbox'
import { up as reconcileByMember } from './0015-reconcile-by-member'
import { up as leanRows } from './0016-lean-rows'
import { up as shortRows } from './0017-short-rows'
import { up as asciiSearch } from './0018-ascii-search'
import { up as teamSetAside } from './0019-team-set-aside'
import { up as teamRestores } from './0020-team-restores'
import { up as teamAssignments } from './0021-team-assignments'
import { up as statusBounds } from './0022-status-bounds'
import { up as markCountsHeld } from './0023-mark-counts-held'
import { up as reviewHistory } from './0024-review-history'
import { up as compactStatusSince } from './0025-compact-status-since'
import { up as leanListIndexes } from './0026-lean-list-indexes'

/** One schema step; `version` is the `user_version` the database has after it. */
export interface Migration {
  readonly version: number
  readonly name: string
  up(db: DatabaseSync): void
  /**
   * Rewrites so much that the file should be rebuilt afterwards (`VACUUM`,
   * outside the migration's transaction), or the space stays in the file.
   */
  readonly vacuumAfter?: boolean
}

/** Every migration, in order. Append only: a released migration never changes. */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial', up: initial },
  { version: 2, name: 'search', up: search },
  { version: 3, name: 'compact', up: compact, vacuumAfter: true },
  { version: 4, name: 'review-by', up: reviewBy },
  { version: 5, name: 'rejected-records', up: rejectedRecords },
  { version: 6, name: 'nfc-text', up: nfcText },
  { version: 7, name: 'counts', up: counts },
  { version: 8, name: 'write-path', up: writePath },
  { version: 9, name: 'page-size', up: pageSize },
  { version: 10, name: 'member-by-words', up: memberByWords, vacuumAfter: true },
  { version: 11, name: 'search-grams', up: searchGrams },
  { version: 12, name: 'changes', up: changes },
  { version: 13, name: 'reconcile', up: reconcile },
  { version: 14, name: 'team-outbox', up: teamOutbox },
  { version: 15, name: 'reconcile-by-member', up: reconcileByMember },
  { version: 16, name: 'lean-rows', up: leanRows, vacuumAfter: true },
  { version: 17, name: 'short-rows', up: shortRows, vacuumAfter: true },
  { version: 18, name: 'ascii-search', up: asciiSearch },
  { version: 19, name: 'team-set-aside', up: teamSetAside },
  { version: 20, name: 'team-restores', up: teamRestores },
  { version: 21, name: 'team-assignments', up: teamAssignments },
  { version: 22, name: 'status-bounds', up: statusBounds },
  { version: 23, name: 'mark-counts-held', up: markCountsHeld },
  { version: 24, name: 'review-history', up: reviewHistory },
  { version: 25, name: 'compact-status-since', up: compactStatusSince, vacuumAfter: true },
  { version: 26, name: 'lean-list-indexes', up: leanListIndexes, vacuumAfter: true },
]

/** The schema version this build writes. */
export const LATEST_VERSION = MIGRATIONS.at(-1)?.version ?? 0
