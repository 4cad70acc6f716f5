import type { DatabaseSync } from 'node:sqlite'

/**
 * Shorter guarantee rows (see `docs/store-and-sync.md`, "Store"):
 *
 * - `card_url_prefixes` holds up to 30 URL prefixes (a URL up to its last
 *   `/`), the most common among the newest 10,000 guarantees first. A
 *   guarantee's `card_url` whose prefix is one of them becomes the
 *   character of the prefix's number (U+0001 … U+001E) and the rest of the
 *   URL; one that starts with a character below U+0020 gets U+001F in
 *   front; any other stays as it is.
 * - `refEtcData1..3` get columns (`ref_etc_data1..3`) and leave `raw`, as
 *   the writer of this version stores them: the value in NFC in its column,
 *   and in `raw` only the value as sent when NFC changed it.
 *
 * Every guarantee row is rewritten, so the file is rebuilt afterwards
 * (`vacuumAfter`). Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE card_url_prefixes (
      id INTEGER PRIMARY KEY,
      prefix TEXT NOT NULL UNIQUE
    ) STRICT;
    INSERT INTO card_url_prefixes (prefix)
      SELECT prefix FROM (
        SELECT rtrim(card_url, replace(card_url, '/', '')) AS prefix, count(*) AS n
        FROM (SELECT card_url FROM guarantees ORDER BY idx DESC LIMIT 10000) GROUP BY prefix
      )
      WHERE prefix <> '' AND unicode(prefix) >= 32
      ORDER BY n DESC, prefix LIMIT 30;
    UPDATE guarantees SET card_url = CASE
      WHEN unicode(card_url) < 32 THEN char(31) || card_url
      ELSE ifnull((SELECT char(p.id) || substr(card_url, length(p.prefix) + 1)
        FROM card_url_prefixes p
        WHERE p.prefix = rtrim(card_url, replace(card_url, '/', ''))), card_url)
      END
    WHERE card_url <> '';
    ALTER TABLE guarantees ADD COLUMN ref_etc_data1 TEXT;
    ALTER TABLE guarantees ADD COLUMN ref_etc_data2 TEXT;
    ALTER TABLE guarantees ADD COLUMN ref_etc_data3 TEXT;
  `)
  // Rows whose values are text NFC leaves as it is (characters below U+0300 and Hangul
  // syllables), nearly all: in one statement. The rest one by one below.
  const plain = `'*[^' || char(1) || '-' || char(767) || char(44032) || '-' || char(55203) || ']*'`
  const moves = (key: string): string =>
    `(raw -> '$.${key}' IS NULL OR (json_type(raw, '$.${key}') = 'text' AND NOT (raw ->> '$.${key}') GLOB ${plain}))`
  db.exec(`
    UPDATE guarantees SET ref_etc_data1 = raw ->> '$.refEtcData1',
      ref_etc_data2 = raw ->> '$.refEtcData2', ref_etc_data3 = raw ->> '$.refEtcData3',
      raw = json_remove(raw, '$.refEtcData1', '$.refEtcData2', '$.refEtcData3')
    WHERE raw LIKE '%"refEtcData%' AND json_valid(raw) AND json_type(raw) = 'object'
      AND ${moves('refEtcData1')} AND ${moves('refEtcData2')} AND ${moves('refEtcData3')};
  `)
  const keys = ['refEtcData1', 'refEtcData2', 'refEtcData3'] as const
  const read = db.prepare(
    `SELECT idx, raw FROM guarantees WHERE idx > ? AND raw LIKE '%"refEtcData%' ORDER BY idx LIMIT 1000`,
  )
  const write = db.prepare(
    `UPDATE guarantees SET ref_etc_data1 = ?, ref_etc_data2 = ?, ref_etc_data3 = ?, raw = ?
     WHERE idx = ?`,
  )
  let after = -1
  for (;;) {
    const rows = read.all(after) as { idx: number; raw: string }[]
    for (const { idx, raw } of rows) {
      let parsed: unknown
      try {
        parsed = JSON.parse(raw)
      } catch {
        continue
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue
      const kept = parsed as Record<string, unknown>
      const columns: (string | null)[] = []
      for (const key of keys) {
        const value = kept[key]
        if (typeof value !== 'string') {
          // Not text (no reader of the app stored that): it stays in raw, as it is.
          columns.push(null)
          continue
        }
        const stored = value.normalize('NFC')
        columns.push(stored)
        if (stored === value) delete kept[key]
      }
      write.run(...columns, Object.keys(kept).length === 0 ? '{}' : JSON.stringify(kept), idx)
    }
    if (rows.length < 1000) break
    after = rows.at(-1)!.idx
  }
}
