import type { DatabaseSync } from 'node:sqlite'

/**
 * Text search: one FTS5 table per list, `unicode61` tokenizer, where every
 * Hangul syllable is its own token (column `t`) and so is its initial
 * consonant (column `c`). A phrase of syllables then finds any Korean
 * substring, one- and two-syllable queries included (`샤넬`, `백`), which the
 * trigram tokenizer silently misses; English words, numbers and codes are
 * whole tokens, matched case-insensitively from their start. The rowid is
 * the record's `idx`. `search_key` (a hash of the indexed text) lets a
 * re-sync skip the index for unchanged records.
 */
export function up(db: DatabaseSync): void {
  for (const table of ['guarantees', 'inspections']) {
    db.exec(`
      CREATE VIRTUAL TABLE ${table}_fts USING fts5(t, c, tokenize = 'unicode61');
      ALTER TABLE ${table} ADD COLUMN search_key TEXT;
    `)
  }
}
