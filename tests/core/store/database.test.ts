import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { StoreConnection } from '../../../src/core/store/connection'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import {
  migrate,
  openStore,
  SEARCH_AUTOMERGE,
  transaction,
  userVersion,
} from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { LATEST_VERSION, MIGRATIONS } from '../../../src/core/store/schema/migrations'
import { queryInspections } from '../../../src/core/store/queries/list-queries'
import { upsertInspections } from '../../support/store-writes'
import { damagedStoreFile, inspection, tempDir } from './fixtures'

let temp: ReturnType<typeof tempDir>
beforeEach(() => {
  temp = tempDir()
})
afterEach(() => temp.remove())

function tables(db: StoreConnection): string[] {
  return (
    db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
      name: string
    }[]
  ).map((row) => row.name)
}

describe('migrations', () => {
  it('brings a new file to the latest version with STRICT tables, in WAL mode', () => {
    const { db, notice } = openStore(storeFileFor(temp.dir, 'sandbox'))
    expect(notice).toBeNull()
    expect(userVersion(db)).toBe(LATEST_VERSION)
    expect(tables(db)).toEqual(
      expect.arrayContaining([
        'guarantees',
        'inspections',
        'brands',
        'sync_state',
        'review_marks',
        'wallet_links',
      ]),
    )
    const sql = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'inspections'").get() as {
      sql: string
    }
    expect(sql.sql).toMatch(/STRICT/)
    expect((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode).toBe(
      'wal',
    )
    db.close()
  })

  for (const migration of MIGRATIONS) {
    it(`migration ${migration.version} (${migration.name}) applies on top of version ${migration.version - 1} and keeps its data`, () => {
      const file = join(temp.dir, 'step.sqlite')
      const db = new StoreConnection(file)
      migrate(db, migration.version - 1)
      expect(userVersion(db)).toBe(migration.version - 1)
      if (migration.version - 1 >= 1) {
        db.prepare(
          "INSERT INTO sync_state (resource, status, pass) VALUES ('inspections', 'idle', 3)",
        ).run()
      }
      migrate(db, migration.version)
      expect(userVersion(db)).toBe(migration.version)
      if (migration.version - 1 >= 1) {
        expect(db.prepare('SELECT pass FROM sync_state').get()).toEqual({ pass: 3 })
      }
      db.close()
    })
  }

  it("stores the search indexes' automerge in the file, and restores it on open when it differs", () => {
    const automerge = (db: StoreConnection, list: string) =>
      (
        db.prepare(`SELECT v FROM ${list}_fts_config WHERE k = 'automerge'`).get() as
          { v: number } | undefined
      )?.v
    const file = storeFileFor(temp.dir, 'sandbox')
    const first = openStore(file).db
    expect(SEARCH_AUTOMERGE).toBe(16)
    for (const list of ['guarantees', 'inspections']) {
      expect(automerge(first, list)).toBe(SEARCH_AUTOMERGE)
    }
    // Another value (SQLite's default 4, as a recreated index has) is set back on the next open.
    first.exec("INSERT INTO inspections_fts (inspections_fts, rank) VALUES ('automerge', 4)")
    first.close()
    const plain = new StoreConnection(file)
    expect(automerge(plain, 'inspections')).toBe(4)
    plain.close()
    const again = openStore(file).db
    expect(automerge(again, 'inspections')).toBe(SEARCH_AUTOMERGE)
    expect(automerge(again, 'guarantees')).toBe(SEARCH_AUTOMERGE)
    // Writes and searches as before.
    transaction(again, () => upsertInspections(again, [inspection(1)], 1, 'now'))
    expect(queryInspections(again, { q: inspection(1).productName }).total).toBe(1)
    again.close()
  })

  it('rolls a failing migration back as a whole', () => {
    const db = new StoreConnection(':memory:')
    migrate(db, 1)
    db.exec('CREATE TABLE guarantees_fts (x INTEGER)')
    expect(() => migrate(db)).toThrow()
    expect(userVersion(db)).toBe(1)
    expect(tables(db)).not.toContain('inspections_fts')
    db.close()
  })
})

describe('a damaged or foreign cache file (docs/faults.md F23, F29)', () => {
  function filesIn(): string[] {
    return readdirSync(join(temp.dir, 'cache')).sort()
  }

  it('a file with a garbage header is moved aside and rebuilt, with a notice', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const first = openStore(file)
    transaction(first.db, () => upsertInspections(first.db, [inspection(1)], 1, 'now'))
    first.db.close()
    const bytes = readFileSync(file)
    bytes.write('this is not sqlite at all', 0)
    writeFileSync(file, bytes)

    const opened = openStore(file, { now: () => new Date('2026-01-02T03:04:05Z') })
    expect(opened.notice?.code).toBe('store_corrupt')
    expect(opened.notice?.message).toContain('rebuilt')
    expect(filesIn()).toEqual(
      expect.arrayContaining(['sandbox.sqlite.corrupt-2026-01-02T03-04-05-000Z']),
    )
    expect(
      (opened.db.prepare('PRAGMA quick_check').get() as { quick_check: string }).quick_check,
    ).toBe('ok')
    expect(queryInspections(opened.db, {}).total).toBe(0)
    opened.db.close()
  })

  it('a damaged page is caught by quick_check and the file rebuilt', () => {
    const file = damagedStoreFile(temp.dir)

    const opened = openStore(file)
    expect(opened.notice?.code).toBe('store_corrupt')
    expect(userVersion(opened.db)).toBe(LATEST_VERSION)
    opened.db.close()
  })

  it('a file written by a newer app version is never migrated down: moved aside and rebuilt', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const first = openStore(file)
    first.db.exec('PRAGMA user_version = 999')
    // Left open, so its -wal and -shm files exist and must move along with it.
    const opened = openStore(file, { now: () => new Date('2026-01-02T03:04:05Z') })
    expect(opened.notice?.code).toBe('store_corrupt')
    expect(userVersion(opened.db)).toBe(LATEST_VERSION)
    expect(filesIn()).toEqual(
      expect.arrayContaining([
        'sandbox.sqlite.corrupt-2026-01-02T03-04-05-000Z',
        'sandbox.sqlite-wal.corrupt-2026-01-02T03-04-05-000Z',
        'sandbox.sqlite-shm.corrupt-2026-01-02T03-04-05-000Z',
      ]),
    )
    first.db.close()
    opened.db.close()
  })

  it('keeps one file per profile and refuses ids that could leave the cache folder', () => {
    expect(storeFileFor('/data', 'sandbox')).toBe(join('/data', 'cache', 'sandbox.sqlite'))
    for (const bad of ['../x', 'a/b', '', '..', 'a\\b']) {
      expect(() => storeFileFor('/data', bad)).toThrow(/profile id/)
    }
  })
})

describe('write failures', () => {
  it('disk full mid-transaction: disk_full, nothing of the batch written, earlier data intact (docs/faults.md F24)', () => {
    const { db } = openStore(storeFileFor(temp.dir, 'sandbox'))
    transaction(db, () => upsertInspections(db, [inspection(1)], 1, 'now'))
    const pages = (db.prepare('PRAGMA page_count').get() as { page_count: number }).page_count
    db.exec(`PRAGMA max_page_count = ${pages + 2}`)
    const big = Array.from({ length: 2000 }, (_, i) =>
      inspection(i + 2, { productName: `긴 상품명 ${'가나다라마바사'.repeat(20)} ${i}` }),
    )
    let caught: unknown
    try {
      transaction(db, () => upsertInspections(db, big, 1, 'now'))
    } catch (error) {
      caught = error
    }
    expect(isAppError(caught, 'disk_full')).toBe(true)
    expect(db.isTransaction).toBe(false)
    expect(queryInspections(db, {}).total).toBe(1)
    db.close()
  })

  it('a second connection holding the write lock gives store_busy after the timeout, not a crash (docs/faults.md F28)', () => {
    const file = storeFileFor(temp.dir, 'sandbox')
    const { db } = openStore(file, { busyTimeoutMs: 50 })
    const other = new StoreConnection(file)
    other.exec('BEGIN IMMEDIATE')
    let caught: unknown
    try {
      transaction(db, () => upsertInspections(db, [inspection(1)], 1, 'now'))
    } catch (error) {
      caught = error
    }
    expect(isAppError(caught, 'store_busy')).toBe(true)
    other.exec('ROLLBACK')
    other.close()
    transaction(db, () => upsertInspections(db, [inspection(1)], 1, 'now'))
    expect(queryInspections(db, {}).total).toBe(1)
    db.close()
    expect(existsSync(file)).toBe(true)
  })
})
