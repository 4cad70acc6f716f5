import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
} from 'node:fs'
import { join } from 'node:path'

/**
 * The data folder holds copies of the partner's records, card images and
 * settings: on a shared computer no other user may read them (docs/security.md).
 * Folders are 0700 and files 0600; every place that creates something in the
 * data folder goes through these helpers. On Windows the modes are ignored
 * (the per-user profile folder's ACL protects the data there).
 */

/** Mode of every folder the app creates in its data folder. */
export const PRIVATE_DIR_MODE = 0o700
/** Mode of every file the app creates in its data folder. */
export const PRIVATE_FILE_MODE = 0o600

/** Creates `dir` (and missing parents) for its owner only, and tightens it when it exists. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  tighten(dir, PRIVATE_DIR_MODE)
}

/**
 * Creates `file` empty with mode 0600 when missing, tightens it otherwise.
 * For files a library creates with its own default mode: SQLite creates a
 * database 0644 but gives its `-wal` and `-shm` files the database's mode,
 * so a database created here first keeps all three private.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE))
  tighten(file, PRIVATE_FILE_MODE)
}

/**
 * At start: a data folder an older version created 0755 with 0644 files is
 * tightened, with everything in it (folders 0700, files 0600; symbolic links
 * are not followed). A folder that is already 0700 is not walked. Returns
 * how many entries were changed.
 */
export function tightenDataDir(dir: string): number {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (process.platform === 'win32') return 0
  // The folder itself may be a link the user made to another disk: follow it.
  const mode = statSync(dir).mode & 0o777
  if (mode === PRIVATE_DIR_MODE) return 0
  try {
    chmodSync(dir, PRIVATE_DIR_MODE)
  } catch {
    return 0
  }
  return 1 + walk(dir, 0)
}

/** Tightens what is inside `dir`, `depth` folders below the data folder. */
function walk(dir: string, depth: number): number {
  let changed = 0
  if (depth > 4) return changed
  let names: string[]
  try {
    names = readdirSync(dir)
  } catch {
    return changed
  }
  for (const name of names) {
    const path = join(dir, name)
    let stat
    try {
      stat = lstatSync(path)
    } catch {
      continue
    }
    if (stat.isDirectory()) {
      if (tighten(path, PRIVATE_DIR_MODE)) changed += 1
      changed += walk(path, depth + 1)
    } else if (stat.isFile() && tighten(path, PRIVATE_FILE_MODE)) changed += 1
  }
  return changed
}

/** Sets `mode` when the entry differs; best effort (a file of another user stays as it is). */
function tighten(path: string, mode: number): boolean {
  if (process.platform === 'win32') return false
  try {
    const stat = lstatSync(path)
    if (stat.isSymbolicLink() || (stat.mode & 0o777) === mode) return false
    chmodSync(path, mode)
    return true
  } catch {
    return false
  }
}
