import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { ensurePrivateDir, PRIVATE_FILE_MODE } from './fs-private'

/**
 * The file in a data folder that holds the embedded sandbox's anchor.
 * @internal
 */
export const SANDBOX_ANCHOR_FILE = 'sandbox-anchor.json'

/**
 * The embedded sandbox's "now" (epoch milliseconds) for a data folder: the
 * moment the app first started on it, kept in {@link SANDBOX_ANCHOR_FILE}.
 * The demo data ends in the hours before that moment, so a first launch shows
 * this week's work; later launches on the same folder keep the same anchor,
 * so the records the local store holds keep their times (a new anchor would
 * move every record and fill the change feed with edits nobody made). A
 * missing or unreadable file is written anew with `now`.
 */
export function sandboxAnchor(dataDir: string, now: number): number {
  const file = join(dataDir, SANDBOX_ANCHOR_FILE)
  try {
    const stored = (JSON.parse(readFileSync(file, 'utf8')) as { anchor?: unknown }).anchor
    if (typeof stored === 'number' && Number.isSafeInteger(stored) && stored > 0) return stored
  } catch {
    // Missing or unreadable: anchored anew below.
  }
  ensurePrivateDir(dataDir)
  writeFileSync(file, `${JSON.stringify({ anchor: now })}\n`, { mode: PRIVATE_FILE_MODE })
  return now
}
