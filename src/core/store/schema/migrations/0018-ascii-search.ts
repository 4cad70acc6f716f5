import type { DatabaseSync } from 'node:sqlite'

/**
 * The search indexes tokenize with FTS5's `ascii` tokenizer instead of
 * `unicode61`. The app's own search code (`search-text.ts`) already writes
 * every record's FTS text, and every query, as folded tokens apart by
 * spaces; what `unicode61` still did on top (look up the category of every
 * Hangul character, fold it, strip diacritics it does not have) cost about
 * 1.5 µs a record in a sync. The app now splits words on anything but a
 * letter or a digit itself, on both sides, so `ascii` (which only splits
 * ASCII) finds the same records.
 *
 * The tables are recreated with the same other options (one column `t`,
 * contentless with deletes) with their `fts5vocab` tables
 * (`<list>_fts_terms`); every `search_key` is cleared, so the store
 * re-indexes every row right after migrating, with the search code of the
 * running app (as migrations 3 and 11 do).
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  for (const list of ['guarantees', 'inspections']) {
    db.exec(`
      DROP TABLE IF EXISTS ${list}_fts_terms;
      DROP TABLE ${list}_fts;
      CREATE VIRTUAL TABLE ${list}_fts USING fts5(
        t, tokenize = 'ascii', content = '', contentless_delete = 1
      );
      CREATE VIRTUAL TABLE ${list}_fts_terms USING fts5vocab(${list}_fts, 'row');
      UPDATE ${list} SET search_key = NULL;
    `)
  }
}
