/**
 * The deep check of a profile's file, shared by `openStore` and the
 * checkpointer thread; it imports nothing, so the checkpointer stays small.
 */

/** The file whose presence says a background deep check found `file` damaged. */
export function damagedMarkerFor(file: string): string {
  return `${file}.damaged`
}

/** `PRAGMA quick_check(1)`, which reads every page: true when they all read well. */
export function deepCheck(db: { prepare(sql: string): { get(): unknown } }): boolean {
  const check = db.prepare('PRAGMA quick_check(1)').get() as { quick_check: string } | undefined
  return check?.quick_check === 'ok'
}
