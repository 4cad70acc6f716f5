import { readdirSync, readFileSync } from 'node:fs'
import { getPriority } from 'node:os'
import { afterEach, describe, expect, it } from 'vitest'
import { Checkpointer } from '../../../src/core/owner/checkpointer'
import { openStore } from '../../../src/core/store/schema/database'
import { storeFileFor } from '../../../src/core/store/paths'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import {
  DATA_THREAD_NICE_STEPS,
  NICE_MAX,
  yieldToMainThread,
  type ThreadPriorityDeps,
} from '../../../src/core/threads/spawn'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { tempDir } from './fixtures'

/** A system that records what was set. */
function fakeSystem(overrides: Partial<ThreadPriorityDeps> = {}): {
  deps: ThreadPriorityDeps
  set: [number, number][]
} {
  const set: [number, number][] = []
  return {
    set,
    deps: {
      platform: 'linux',
      threadId: () => 4242,
      getPriority: () => 0,
      setPriority: (tid, priority) => {
        set.push([tid, priority])
      },
      ...overrides,
    },
  }
}

describe('yieldToMainThread', () => {
  it('lowers the calling thread by the data threads’ steps, relative to where it was', () => {
    const plain = fakeSystem()
    expect(yieldToMainThread(plain.deps)).toBe(DATA_THREAD_NICE_STEPS)
    expect(plain.set).toEqual([[4242, DATA_THREAD_NICE_STEPS]])

    const niced = fakeSystem({ getPriority: () => 5 })
    expect(yieldToMainThread(niced.deps)).toBe(5 + DATA_THREAD_NICE_STEPS)
  })

  it('never goes past the lowest priority the system knows', () => {
    const low = fakeSystem({ getPriority: () => 15 })
    expect(yieldToMainThread(low.deps)).toBe(19)
    expect(low.set).toEqual([[4242, 19]])
  })

  it('does nothing where priority is per process, not per thread', () => {
    for (const platform of ['darwin', 'win32'] as const) {
      const other = fakeSystem({ platform })
      expect(yieldToMainThread(other.deps)).toBeNull()
      expect(other.set).toEqual([])
    }
  })

  it('leaves the thread as it is when the system cannot tell its id or refuses', () => {
    const noProc = fakeSystem({
      threadId: () => {
        throw Object.assign(new Error('ENOENT: /proc/thread-self'), { code: 'ENOENT' })
      },
    })
    expect(yieldToMainThread(noProc.deps)).toBeNull()
    expect(noProc.set).toEqual([])

    const garbled = fakeSystem({ threadId: () => Number.NaN })
    expect(yieldToMainThread(garbled.deps)).toBeNull()
    expect(garbled.set).toEqual([])

    const refused = fakeSystem({
      setPriority: () => {
        throw Object.assign(new Error('EACCES'), { code: 'EACCES' })
      },
    })
    expect(yieldToMainThread(refused.deps)).toBeNull()
  })
})

/**
 * This process's worker threads (Node names them `WorkerThread`) and their
 * nice values, from `/proc` (Linux): other threads that start meanwhile
 * (libuv's pool, V8's helpers) are none of these tests' business.
 */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>()
  for (const name of readdirSync('/proc/self/task')) {
    let stat: string
    try {
      stat = readFileSync(`/proc/self/task/${name}/stat`, 'utf8')
    } catch {
      continue // exited meanwhile
    }
    if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) !== 'WorkerThread') continue
    // After the command name in brackets: state is field 3, nice field 19.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    nices.set(Number(name), Number(fields[16]))
  }
  return nices
}

/** The nice values of the threads started since `before`. */
function newThreadNices(before: Map<number, number>): number[] {
  return [...threadNices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice)
}

describe.runIf(process.platform === 'linux')('the data threads on Linux', () => {
  const closers: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const close of closers.splice(0)) await close()
  })
  const expected = Math.min(NICE_MAX, getPriority() + DATA_THREAD_NICE_STEPS)

  it('the database owner runs below the thread that opened it; that thread keeps its priority', async () => {
    const temp = tempDir()
    closers.push(async () => temp.remove())
    const mine = getPriority()
    const before = threadNices()
    const owner = await StoreOwner.open({
      file: storeFileFor(temp.dir, 'sandbox'),
      threads: SOURCE_STORE_WORKER,
      now: () => new Date('2026-01-02T03:04:05Z'),
    })
    closers.unshift(() => owner.close())
    // Its thread and, while it checks the file, its checkpointer's (which has a test of its own):
    // each one lowered.
    await expect
      .poll(
        () => {
          const nices = newThreadNices(before)
          return nices.length > 0 && nices.every((nice) => nice === expected)
        },
        { timeout: 5000, interval: 20 },
      )
      .toBe(true)
    expect(getPriority()).toBe(mine)
  })

  it('the page thread runs below the thread that started it', async () => {
    const before = threadNices()
    const pages = new PageThread(SOURCE_PAGE_WORKER)
    closers.push(() => pages.close())
    // Answered once the thread has run its start-up code.
    await pages.parse({
      resource: 'guarantees',
      body: {
        bytes: new Uint8Array(Buffer.from('{"total":0,"page":1,"data":[]}')),
        contentType: 'application/json',
        status: 200,
      },
      page: 1,
      rowsPerChunk: 100,
    })
    expect(newThreadNices(before)).toContain(expected)
  })

  it('the checkpointer runs below the thread that started it', async () => {
    const temp = tempDir()
    closers.push(async () => temp.remove())
    const file = storeFileFor(temp.dir, 'sandbox')
    openStore(file).db.close()
    const before = threadNices()
    const checkpointer = new Checkpointer(file, SOURCE_STORE_WORKER.checkpointer)
    closers.unshift(() => checkpointer.close())
    // A checkpoint to run keeps the thread past its check of the file.
    checkpointer.request()
    // Its thread sets its priority first thing; give it the moment it takes to start.
    await expect
      .poll(() => newThreadNices(before), { timeout: 5000, interval: 20 })
      .toContain(expected)
  })
})
