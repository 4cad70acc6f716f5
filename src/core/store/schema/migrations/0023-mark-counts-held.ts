import type { DatabaseSync } from 'node:sqlite'

/**
 * Marks written many at a time count once per statement: while
 * `mark_counts_held` has a row (only inside the transaction of a bulk mark,
 * an undo or a page of pulled team events), the `review_marks` triggers of
 * migration 7 leave `list_counts` and `list_day_counts` alone, and the
 * writer moves the counts of all its records at once
 * (`write/mark-counts.ts`). Otherwise the triggers count as before: each is
 * made again with its own condition and "no hold" added to it.
 * Self-contained: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`CREATE TABLE mark_counts_held (held INTEGER PRIMARY KEY) STRICT;`)
  const triggers = db
    .prepare(
      `SELECT name, sql FROM sqlite_master
        WHERE type = 'trigger' AND tbl_name = 'review_marks' ORDER BY name`,
    )
    .all() as { name: string; sql: string }[]
  for (const { name, sql } of triggers) {
    const held = sql.replace(
      /\bWHEN\b([\s\S]*?)\bBEGIN\b/u,
      (_, condition: string) =>
        `WHEN (${condition.trim()}) AND NOT EXISTS (SELECT 1 FROM mark_counts_held) BEGIN`,
    )
    if (held === sql) throw new Error(`Trigger ${name} has no condition to add to.`)
    db.exec(`DROP TRIGGER ${name}`)
    db.exec(held)
  }
}
