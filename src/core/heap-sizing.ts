import { setFlagsFromString } from 'node:v8'

/**
 * Young generation sizing of the app's process: the main thread's young
 * generation stops growing once the app has started, and each data thread
 * starts with its young generation at its bound.
 *
 * V8 doubles a heap's young generation each time the bytes that survived
 * its collections since the last doubling pass its size, up to 64 MB on
 * Node 24's main thread. A sync keeps the main thread busy with requests in
 * flight, so some of their objects always survive: over a long sync the
 * young generation doubled up to that bound and stayed there, a quarter of
 * the process's peak resident memory (`sync_peak_rss_mb`,
 * `docs/benchmarks.md`). Held at the size it has when the app starts, it
 * is collected more often, each collection as small.
 *
 * The growth factor is one setting for the whole process, read whenever a
 * heap would grow, so it holds the main thread's heap, already running.
 * It would hold a data thread's young generation at V8's smallest start
 * too; the smallest size a young generation starts at, read when a
 * thread's heap is made and clamped to its own bound, therefore starts
 * each data thread at the bound `spawnStoreThread` gives it
 * (`threads/spawn.ts`). Both are set with `v8.setFlagsFromString`, which
 * Electron's main process allows (it starts V8 with its flags writable).
 */
export function holdMainYoungGeneration(
  setFlags: (flags: string) => void = setFlagsFromString,
): void {
  setFlags(`--min-semi-space-size=${LARGEST_SEMI_SPACE_MB}`)
  setFlags('--semi-space-growth-factor=1')
}

/**
 * A half of the largest young generation V8 gives a heap on 64-bit
 * (two halves take turns): no data thread's bound is above it, so each
 * starts at its own.
 */
const LARGEST_SEMI_SPACE_MB = 16
