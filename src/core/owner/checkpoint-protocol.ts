/**
 * The messages between the owner's handle (`checkpointer.ts`) and the WAL
 * checkpointer thread (`checkpoint-worker.ts`), checked by hand where they
 * arrive, as every data thread's messages are: the thread loads no schema
 * library.
 */

/** What the checkpointer is started with. */
export interface CheckpointerData {
  readonly file: string
  /** Runs the file's deep check first (the thread started when the owner opened the file). */
  readonly deepCheck?: boolean
}

/** `raw` as {@link CheckpointerData}, or null when it is not one. */
export function readCheckpointerData(raw: unknown): CheckpointerData | null {
  if (typeof raw !== 'object' || raw === null) return null
  const { file, deepCheck } = raw as Record<string, unknown>
  if (typeof file !== 'string' || file.length === 0) return null
  if (deepCheck !== undefined && typeof deepCheck !== 'boolean') return null
  return { file, deepCheck: deepCheck === true }
}

/** Owner's handle → checkpointer: run one passive checkpoint, or close the connection and exit. */
export type ToCheckpointer = 'run' | 'close'

/** True when `raw` is a {@link ToCheckpointer}. */
export function isToCheckpointer(raw: unknown): raw is ToCheckpointer {
  return raw === 'run' || raw === 'close'
}

/**
 * Checkpointer → owner's handle: how the checkpoint asked for went
 * (`done`, `failed`); the deep check found the file damaged (`damaged`);
 * the deep check is over (`checked`, after `damaged` if it found damage).
 */
export type FromCheckpointer = 'done' | 'failed' | 'damaged' | 'checked'
