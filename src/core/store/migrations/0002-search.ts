import type { DatabaseSync } from 'node:sqlite'

/**
 * Text search. Two FTS5 indexes per resource, because FTS5's trigram
 * tokenizer alone silently finds nothing for one- or two-character queries
 * (`샤넬`, `백`):
 * - `*_tri` (trigram): folded text and its initial consonants (초성), for
 *   queries of three characters or more;
 * - `*_uni` (one token per Hangul syllable or consonant): a phrase query
 *   finds any run of syllables, for the short Korean queries.
 * The rowid of both is the record's `idx`; the sync writes them with the row.
 */
export function up(db: DatabaseSync): void {
  for (const table of ['guarantees', 'inspections']) {
    db.exec(`
      CREATE VIRTUAL TABLE ${table}_tri USING fts5(t, c, tokenize = 'trigram');
      CREATE VIRTUAL TABLE ${table}_uni USING fts5(t, c, tokenize = 'unicode61');
    `)
  }
}
