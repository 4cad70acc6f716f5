import type { DatabaseSync } from 'node:sqlite'

/**
 * Search grams: digits are indexed as marked trigrams (every run of three
 * or more digits; the text held every suffix of every run as its own term:
 * most of the index's terms), initials as triples instead of pairs
 * (shorter posting lists for 초성), and everything in one column `t`
 * (FTS5 marks each posting of a later column with its number). The tables are recreated with
 * the same options (`unicode61`, contentless with deletes) and their
 * `fts5vocab` tables (`<list>_fts_terms`) with them; every `search_key` is
 * cleared, so the store re-indexes every row right after migrating, with
 * the search code of the running app (as migration 3 does).
 *
 * Frozen: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  for (const list of ['guarantees', 'inspections']) {
    db.exec(`
      DROP TABLE IF EXISTS ${list}_fts_terms;
      DROP TABLE ${list}_fts;
      CREATE VIRTUAL TABLE ${list}_fts USING fts5(
        t, tokenize = 'unicode61', content = '', contentless_delete = 1
      );
      CREATE VIRTUAL TABLE ${list}_fts_terms USING fts5vocab(${list}_fts, 'row');
      UPDATE ${list} SET search_key = NULL;
    `)
  }
}
