/**
 * What the database owner spent on synced pages: records, pages, commits
 * and the thread's CPU time inside them (the "write step" of
 * `docs/store-and-sync.md`). Kept per owner thread, read with the
 * `writeStats` operation; the bench reports it as `write_us_per_record`.
 */
export interface WriteStats {
  readonly records: number
  readonly pages: number
  readonly commits: number
  /** CPU time of the owner thread while writing them, in microseconds. */
  readonly cpuMicros: number
}

const totals = { records: 0, pages: 0, commits: 0, cpuMicros: 0 }

/** This thread's CPU time in microseconds (wall time where the runtime cannot tell). */
export function threadMicros(): number {
  if (typeof process.threadCpuUsage === 'function') {
    const { user, system } = process.threadCpuUsage()
    return user + system
  }
  return performance.now() * 1000
}

/** Adds one committed batch of pages. */
export function countWrite(records: number, pages: number, cpuMicros: number): void {
  totals.records += records
  totals.pages += pages
  totals.commits += 1
  totals.cpuMicros += cpuMicros
}

/** The totals since the thread started. */
export function writeStats(): WriteStats {
  return { ...totals }
}
