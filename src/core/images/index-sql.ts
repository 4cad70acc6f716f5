import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { ensurePrivateFile } from '../fs-private'
import type { ImageIndexCall } from './index-protocol'

/**
 * The image cache's index, a small SQLite file next to the cached images:
 * which file each URL resolved to, each file's size and when it was last
 * used. Runs only in the image-index thread (`index-worker.ts`).
 */
export class ImageIndexDb {
  readonly #db: DatabaseSync

  constructor(dir: string) {
    const file = join(dir, 'index.sqlite')
    ensurePrivateFile(file)
    this.#db = new DatabaseSync(file)
    this.#db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA cache_size = -512;
      CREATE TABLE IF NOT EXISTS files (
        name TEXT PRIMARY KEY, size INTEGER NOT NULL, last_used INTEGER NOT NULL) STRICT;
      CREATE INDEX IF NOT EXISTS files_by_use ON files (last_used);
      CREATE TABLE IF NOT EXISTS urls (url TEXT PRIMARY KEY, name TEXT NOT NULL) STRICT;
    `)
  }

  /** Runs one call of the protocol and answers its value. */
  run(call: ImageIndexCall): unknown {
    switch (call.op) {
      case 'totalBytes':
        return this.#total()
      case 'nameOfUrl': {
        const row = this.#db.prepare('SELECT name FROM urls WHERE url = ?').get(call.url) as
          { name: string } | undefined
        return row?.name ?? null
      }
      case 'use': {
        const row = this.#db.prepare('SELECT size FROM files WHERE name = ?').get(call.name) as
          { size: number } | undefined
        if (!row) return null
        this.#db.prepare('UPDATE files SET last_used = ? WHERE name = ?').run(call.now, call.name)
        return row.size
      }
      case 'store':
        return this.#store(call)
    }
  }

  /** Records a stored file and its URL; answers the least-recently-used names evicted to fit. */
  #store(call: Extract<ImageIndexCall, { op: 'store' }>): string[] {
    this.#db
      .prepare(
        'INSERT INTO files (name, size, last_used) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET last_used = excluded.last_used',
      )
      .run(call.name, call.size, call.now)
    this.#db
      .prepare(
        'INSERT INTO urls (url, name) VALUES (?, ?) ON CONFLICT (url) DO UPDATE SET name = excluded.name',
      )
      .run(call.url, call.name)
    let total = this.#total()
    const evicted: string[] = []
    if (total <= call.maxTotalBytes) return evicted
    const rows = this.#db
      .prepare('SELECT name, size FROM files WHERE name != ? ORDER BY last_used ASC')
      .all(call.name) as { name: string; size: number }[]
    for (const row of rows) {
      if (total <= call.maxTotalBytes) break
      this.#db.prepare('DELETE FROM files WHERE name = ?').run(row.name)
      this.#db.prepare('DELETE FROM urls WHERE name = ?').run(row.name)
      evicted.push(row.name)
      total -= row.size
    }
    return evicted
  }

  #total(): number {
    const row = this.#db.prepare('SELECT coalesce(sum(size), 0) AS n FROM files').get() as {
      n: number
    }
    return row.n
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close()
  }
}
