import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const CHILD = fileURLToPath(new URL('../support/heap-child.ts', import.meta.url))

interface HeapReport {
  /** The main thread's young generation, MB: before, after it kept objects alive. */
  readonly main: readonly [number, number]
  /** The same for a data thread bound to 8 MB. */
  readonly thread: readonly [number, number]
}

/** Runs `support/heap-child.ts` in a process of its own: V8's flags are one per process. */
function heapIn(...args: string[]): HeapReport {
  const child = spawnSync(process.execPath, ['--import', 'tsx', CHILD, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
  })
  const line = child.stdout.split('\n').find((l) => l.startsWith('HEAP='))
  if (!line) throw new Error(`heap-child failed (${child.status}): ${child.stderr}`)
  return JSON.parse(line.slice('HEAP='.length)) as HeapReport
}

describe('the process heap, sized as the app starts', () => {
  it("holds the main thread's young generation, and starts a data thread at its bound", () => {
    const held = heapIn('hold')
    const left = heapIn()
    // Left to V8, the young generation doubles while objects keep surviving; held, it stays.
    // (Its capacity, read between collections, varies by a fraction of a MB.)
    expect(left.main[1]).toBeGreaterThanOrEqual(2 * left.main[0])
    expect(held.main[1]).toBeLessThan(1.5 * held.main[0])
    // A data thread grows to its bound when left; held, it starts there and stays.
    expect(left.thread[0]).toBeLessThan(0.75 * left.thread[1])
    expect(held.thread[0]).toBeGreaterThan(0.75 * left.thread[1])
    expect(held.thread[1]).toBeLessThan(1.5 * left.thread[1])
  }, 120_000)
})
