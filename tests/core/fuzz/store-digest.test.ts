import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { LATEST_VERSION } from '../../../src/core/store/schema/migrations'
import { StoreDigest, changedParts } from '../../support/fuzz/store-digest'

/** The fuzz test's "changes nothing on a refusal" rests on this digest: what it sees and names. */
describe('the fuzz store digest', () => {
  const open: { digest: StoreDigest; db: DatabaseSync }[] = []
  afterEach(() => {
    for (const { digest, db } of open.splice(0)) {
      digest.close()
      db.close()
    }
  })

  function storeAt(version: number) {
    const dataDir = mkdtempSync(join(tmpdir(), 'digest-'))
    mkdirSync(join(dataDir, 'cache'))
    const settings = join(dataDir, 'settings.json')
    writeFileSync(settings, '{"language":"ko"}')
    const db = new DatabaseSync(join(dataDir, 'cache', 'shop.sqlite'))
    db.exec(`
      CREATE TABLE inspections (idx INTEGER PRIMARY KEY, status TEXT);
      CREATE TABLE review_marks (idx INTEGER PRIMARY KEY, mark TEXT, team_seq INTEGER);
      CREATE TABLE team_state (id INTEGER PRIMARY KEY, last_seq INTEGER);
      INSERT INTO inspections VALUES (1, '정품'), (2, '가품');
      INSERT INTO review_marks VALUES (1, 'reviewed', NULL);
      PRAGMA user_version = ${version};
    `)
    const keychain = [{ account: 'profile-1', password: 'k' }]
    const digest = new StoreDigest({
      dataDir,
      settingsFile: () => settings,
      keychain: () => Promise.resolve(keychain),
    })
    open.push({ digest, db })
    return { db, digest, settings, keychain }
  }

  it('names the file and table a change is in, and nothing when nothing changed', async () => {
    const { db, digest, settings, keychain } = storeAt(LATEST_VERSION)
    const first = await digest.take()
    expect(await digest.take()).toBe(first)
    db.exec(`UPDATE inspections SET status = '정품' WHERE idx = 2`)
    const second = await digest.take()
    expect(changedParts(first, second)).toEqual(['shop.sqlite/inspections'])
    db.exec(`DELETE FROM review_marks`)
    writeFileSync(settings, '{"language":"en"}')
    keychain.push({ account: 'profile-2', password: 'x' })
    expect(changedParts(second, await digest.take())).toEqual([
      'shop.sqlite/review_marks',
      'settings',
      'keychain',
    ])
  })

  it('leaves out what the team thread keeps up to date in the background', async () => {
    const { db, digest } = storeAt(LATEST_VERSION)
    const first = await digest.take()
    db.exec(`INSERT INTO team_state VALUES (1, 40); UPDATE review_marks SET team_seq = 40`)
    expect(await digest.take()).toBe(first)
  })

  it('reads a file below the newest schema as still opening, with no rows', async () => {
    const { db, digest } = storeAt(LATEST_VERSION - 1)
    const first = await digest.take()
    expect(first.split('\n')[0]).toBe('shop.sqlite/opening')
    db.exec(`PRAGMA user_version = ${LATEST_VERSION}`)
    expect(changedParts(first, await digest.take())).toEqual([
      'shop.sqlite/opening',
      'shop.sqlite/inspections',
      'shop.sqlite/review_marks',
    ])
  })
})
