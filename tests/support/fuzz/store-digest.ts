import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'

/**
 * A digest of what a core has stored: every row of every profile's cache
 * file, the settings file and the keychain entries. Files no connection
 * committed to since the last digest are not read again (`PRAGMA
 * data_version` of a connection kept open per file, read-only).
 *
 * What the team thread writes on its own after a call that succeeded (the
 * outbox, the mark and assignment events pulled back, the server's numbers
 * on a mark or an assignment) is left out: that is background work, not
 * the call's.
 */
export class StoreDigest {
  readonly #cacheDir: string
  readonly #settingsFile: () => string | null
  readonly #keychain: () => Promise<unknown>
  readonly #files = new Map<string, { db: DatabaseSync; version: number; digest: string }>()

  constructor(options: {
    readonly dataDir: string
    readonly settingsFile: () => string | null
    readonly keychain: () => Promise<unknown>
  }) {
    this.#cacheDir = join(options.dataDir, 'cache')
    this.#settingsFile = options.settingsFile
    this.#keychain = options.keychain
  }

  /** What is stored now, as one string that differs when any kept row, setting or key does. */
  async take(): Promise<string> {
    const parts: string[] = []
    const names = existsSync(this.#cacheDir)
      ? readdirSync(this.#cacheDir)
          .filter((name) => name.endsWith('.sqlite'))
          .sort()
      : []
    for (const [file, open] of this.#files) {
      if (!names.includes(file)) {
        open.db.close()
        this.#files.delete(file)
      }
    }
    // A file still being created or migrated (a profile an earlier call made or opened, its
    // owner thread working in the background) is one line, `name/opening`, with no rows read
    // until it is at the newest schema.
    for (const name of names) {
      for (const table of this.#fileDigest(name).split('\n')) parts.push(`${name}/${table}`)
    }
    const settings = this.#settingsFile()
    parts.push(
      `settings:${settings !== null && existsSync(settings) ? hash(readFileSync(settings)) : '-'}`,
    )
    parts.push(`keychain:${hash(JSON.stringify(await this.#keychain()))}`)
    return parts.join('\n')
  }

  close(): void {
    for (const open of this.#files.values()) open.db.close()
    this.#files.clear()
  }

  #fileDigest(name: string): string {
    let open = this.#files.get(name)
    if (!open) {
      const db = new DatabaseSync(join(this.#cacheDir, name), { readOnly: true })
      open = { db, version: -1, digest: '' }
      this.#files.set(name, open)
    }
    const schema = (open.db.prepare('PRAGMA user_version').get() as { user_version: number })
      .user_version
    if (schema < LATEST_VERSION) return 'opening'
    const version = (open.db.prepare('PRAGMA data_version').get() as { data_version: number })
      .data_version
    if (version !== open.version) {
      open.digest = digestRows(open.db)
      open.version = version
    }
    return open.digest
  }
}

/** Tables and columns the team thread keeps up to date in the background. */
const BACKGROUND_TABLES = new Set([
  'team_state',
  'team_outbox',
  'team_review_events',
  'team_assignment_events',
  // The sync engine's own bookkeeping: a sync the core starts by itself (a profile just made
  // active, the schedule) writes it while the calls go on. The records a sync stores are kept.
  'sync_state',
])
const BACKGROUND_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  review_marks: ['team_seq', 'team_author', 'changed_while_away'],
  // An assignment this member made comes back from the server with its number.
  record_assignments: ['team_seq'],
  wallet_links: ['event_id', 'author'],
}

/**
 * What differs between two digests, by file and table (`profile.sqlite/review_marks`,
 * `settings`, `keychain`): for the failure message of a refused call that changed something.
 */
export function changedParts(before: string, after: string): string[] {
  const keyed = (digest: string) =>
    new Map(
      digest.split('\n').map((line) => {
        // A file still opening is one line, `name/opening`, without a hash.
        const cut = line.lastIndexOf(':')
        return cut < 0
          ? ([line, ''] as const)
          : ([line.slice(0, cut), line.slice(cut + 1)] as const)
      }),
    )
  const was = keyed(before)
  const now = keyed(after)
  return [...new Set([...was.keys(), ...now.keys()])].filter((key) => was.get(key) !== now.get(key))
}

/** One line per table, `table:hash`, in name order. */
function digestRows(db: DatabaseSync): string {
  const lines: string[] = []
  const tables = db
    .prepare(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all() as { name: string }[]
  for (const { name } of tables) {
    if (BACKGROUND_TABLES.has(name)) continue
    const skip = new Set(BACKGROUND_COLUMNS[name] ?? [])
    const sha = createHash('sha256')
    let rows: Record<string, unknown>[]
    try {
      rows = db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]
    } catch {
      // A virtual table whose module this connection lacks: its shadow tables are read instead.
      continue
    }
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (skip.has(column)) continue
        sha.update(column)
        sha.update(value instanceof Uint8Array ? value : `=${typeof value}:${String(value)};`)
      }
      sha.update('\n')
    }
    lines.push(`${name}:${sha.digest('hex')}`)
  }
  return lines.join('\n')
}

function hash(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}
