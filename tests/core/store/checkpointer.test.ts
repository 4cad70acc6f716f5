import { statSync } from 'node:fs'
import type { DatabaseSync } from 'node:sqlite'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openStore } from '../../../src/core/store/schema/database'
import { Checkpointer, type CheckpointHost } from '../../../src/core/owner/checkpointer'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import { storeFileFor } from '../../../src/core/store/paths'
import { liveStoreThreads, type ThreadEntry } from '../../../src/core/threads/spawn'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profiles'
import { bootForTest, call } from '../helpers/core'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { inspection, tempDir } from './fixtures'

const OWN = SOURCE_STORE_WORKER.checkpointer

/** The checkpointer's own threads still running. */
const ownThreads = (entry: ThreadEntry = OWN): number => liveStoreThreads(entry)

/**
 * A host whose thread is running or not as the test says; each checkpoint
 * it takes waits until the test settles it.
 */
function fakeHost(): CheckpointHost & {
  running: boolean
  readonly asked: string[]
  readonly inFlight: number
  settle(ok?: boolean): void
} {
  const asked: string[] = []
  const settles: ((ok: boolean) => void)[] = []
  const host = {
    running: true,
    asked,
    /** Checkpoints taken and not yet settled. */
    get inFlight(): number {
      return settles.length
    },
    /** Ends the oldest checkpoint in flight. */
    settle(ok = true): void {
      settles.shift()?.(ok)
    },
    checkpointIfRunning(file: string): Promise<boolean> | null {
      asked.push(file)
      if (!host.running) return null
      return new Promise<boolean>((resolve) => settles.push(resolve))
    },
  }
  return host
}

/** Lets settled promises' continuations run. */
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

let temp: ReturnType<typeof tempDir>
let file: string
let writer: DatabaseSync
const closers: (() => Promise<void>)[] = []
beforeEach(() => {
  temp = tempDir()
  file = storeFileFor(temp.dir, 'sandbox')
  // Holds the file open as the owner does, writing to the log only.
  writer = openStore(file, { autoCheckpoint: false }).db
})
afterEach(async () => {
  for (const close of closers.splice(0)) await close()
  writer.close()
  temp.remove()
})

/** A checkpointer on the test's file whose own thread has finished its deep check and exited. */
async function checkpointer(host?: CheckpointHost, idleMs = 60_000): Promise<Checkpointer> {
  const made = new Checkpointer(file, OWN, undefined, { idleMs, ...(host ? { host } : {}) })
  closers.unshift(() => made.close())
  await vi.waitFor(() => expect(ownThreads()).toBe(0), { timeout: 10_000, interval: 20 })
  return made
}

/** Writes about 800 kB to the log; answers the file's size before. */
function fillLog(): number {
  writer.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)')
  const insert = writer.prepare('INSERT INTO filler VALUES (randomblob(4000))')
  for (let i = 0; i < 200; i += 1) insert.run()
  return statSync(file).size
}

describe('the checkpointer with a host', () => {
  it('runs a checkpoint on the host while it runs, and starts no thread of its own', async () => {
    const host = fakeHost()
    const checkpoints = await checkpointer(host)
    checkpoints.request()
    expect(host.asked).toEqual([file])
    expect(host.inFlight).toBe(1)
    expect(ownThreads()).toBe(0)
    host.settle()
    await turn()
    checkpoints.request()
    expect(host.asked).toEqual([file, file])
    expect(ownThreads()).toBe(0)
    host.settle()
  })

  it('uses its own thread when the host is not running, and that thread copies the log', async () => {
    const host = fakeHost()
    host.running = false
    const checkpoints = await checkpointer(host)
    const before = fillLog()
    checkpoints.request()
    expect(host.asked).toEqual([file])
    expect(ownThreads()).toBe(1)
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 700_000), {
      timeout: 10_000,
      interval: 20,
    })
  })

  it('runs one checkpoint at a time: requests meanwhile make one more after it, failed or not', async () => {
    const host = fakeHost()
    const checkpoints = await checkpointer(host)
    checkpoints.request()
    checkpoints.request()
    checkpoints.request()
    expect(host.asked).toHaveLength(1)
    host.settle(false)
    await turn()
    // The requests made meanwhile: one more checkpoint.
    expect(host.asked).toHaveLength(2)
    expect(host.inFlight).toBe(1)
    host.settle()
    await turn()
    expect(host.asked).toHaveLength(2)
    expect(host.inFlight).toBe(0)
  })

  it('a request while its own thread runs one waits for it, then goes to the host if that runs now', async () => {
    const host = fakeHost()
    host.running = false
    const checkpoints = await checkpointer(host)
    const before = fillLog()
    checkpoints.request()
    expect(ownThreads()).toBe(1)
    host.running = true
    checkpoints.request()
    // Not sent anywhere while the own thread's checkpoint runs.
    expect(host.asked).toHaveLength(1)
    await vi.waitFor(() => expect(host.asked).toHaveLength(2), { timeout: 10_000, interval: 20 })
    expect(statSync(file).size).toBeGreaterThan(before + 700_000)
    host.settle()
  })

  it('lets its own idle thread go once the host takes a checkpoint, so a sync runs one of them', async () => {
    const host = fakeHost()
    host.running = false
    // Idle for a minute: only the host's taking over ends the thread in this test.
    const checkpoints = await checkpointer(host, 60_000)
    const before = fillLog()
    checkpoints.request()
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 700_000), {
      timeout: 10_000,
      interval: 20,
    })
    // Its checkpoint done (or about to be), it stays for the minute it may idle.
    expect(ownThreads()).toBe(1)
    host.running = true
    checkpoints.request()
    // The host takes this one (at once, or as soon as the own thread answers the last).
    await vi.waitFor(() => expect(host.asked).toHaveLength(2), { timeout: 10_000, interval: 20 })
    await vi.waitFor(() => expect(ownThreads()).toBe(0), { timeout: 10_000, interval: 20 })
    host.settle()
  })

  it('keeps its own thread through its deep check when the host takes a checkpoint meanwhile', async () => {
    // An own thread whose check takes 500 ms and which exits when told to close. It tells
    // the end of its check through the one callback the checkpointer hands on (`damaged`),
    // just before `checked`.
    const slow: ThreadEntry = {
      url: new URL(
        `data:text/javascript,${encodeURIComponent(
          "import { parentPort, workerData } from 'node:worker_threads'; if (workerData.deepCheck) setTimeout(() => { parentPort.postMessage('damaged'); parentPort.postMessage('checked') }, 500); parentPort.on('message', (m) => (m === 'close' ? process.exit(0) : parentPort.postMessage('done')))",
        )}`,
      ),
    }
    const host = fakeHost()
    let aliveAtCheckEnd = -1
    const checkEnded = new Promise<void>((resolve) => {
      const checkpoints = new Checkpointer(
        file,
        slow,
        () => {
          aliveAtCheckEnd = ownThreads(slow)
          resolve()
        },
        { host },
      )
      closers.unshift(() => checkpoints.close())
      checkpoints.request()
    })
    host.settle()
    expect(host.asked).toHaveLength(1)
    // Told to close meanwhile, it would have exited before the end of its check.
    await checkEnded
    expect(aliveAtCheckEnd).toBe(1)
    // Checked, and with nothing asked of it: it exits.
    await vi.waitFor(() => expect(ownThreads(slow)).toBe(0), { timeout: 10_000, interval: 20 })
  })

  it('close waits for a checkpoint in flight on the host, and later requests are ignored', async () => {
    const host = fakeHost()
    const checkpoints = await checkpointer(host)
    checkpoints.request()
    // Asked meanwhile: dropped by the close.
    checkpoints.request()
    let closed = false
    const closing = checkpoints.close().then(() => (closed = true))
    // Its own thread gone, the close still waits for the host's checkpoint.
    await vi.waitFor(() => expect(ownThreads()).toBe(0), { timeout: 10_000, interval: 20 })
    await turn()
    expect(closed).toBe(false)
    host.settle()
    await closing
    expect(closed).toBe(true)
    checkpoints.request()
    expect(host.asked).toHaveLength(1)
    expect(ownThreads()).toBe(0)
  })
})

describe("the owner's checkpoints on the page thread", () => {
  it('during a sync the page thread copies the log and no checkpointer thread starts', async () => {
    const pages = new PageThread(SOURCE_PAGE_WORKER)
    const outcomes: (boolean | null)[] = []
    const owner = await StoreOwner.open({
      file: storeFileFor(temp.dir, 'owned'),
      threads: SOURCE_STORE_WORKER,
      checkpointHost: {
        checkpointIfRunning: (path) => {
          const outcome = pages.checkpointIfRunning(path)
          if (outcome) void outcome.then((ok) => outcomes.push(ok))
          else outcomes.push(null)
          return outcome
        },
      },
    })
    closers.unshift(async () => {
      await owner.close()
      await pages.close()
    })
    // The deep check over, the owner's checkpointer thread has exited.
    await vi.waitFor(() => expect(ownThreads()).toBe(0), { timeout: 10_000, interval: 20 })
    // A page is on its way: the page thread runs.
    pages.warm()
    const before = statSync(owner.file).size
    await owner.call('writePage', {
      resource: 'inspections',
      items: Array.from({ length: 500 }, (_, i) => inspection(i + 1)),
      pass: 1,
      at: '2026-01-01T00:00:00Z',
    })
    // A second after the last write, the checkpoint: on the page thread, and the rows reached the file.
    await vi.waitFor(() => expect(outcomes).toEqual([true]), { timeout: 10_000, interval: 20 })
    expect(statSync(owner.file).size).toBeGreaterThan(before)
    expect(ownThreads()).toBe(0)
  })
})

describe('the app', () => {
  it("hands the page thread to the profile's owner: a sync's checkpoints start no checkpointer thread", async () => {
    const core = await bootForTest({
      keychain: new MemoryStore(),
      keychainService: 'checkpointer-test',
      sandboxSize: 300,
    })
    closers.unshift(() => core.close())
    const cache = storeFileFor(core.dataDir, SANDBOX_PROFILE_ID)
    await call(core, 'inspections.query', {})
    // The deep check at open over, the checkpointer thread has exited.
    await vi.waitFor(() => expect(ownThreads()).toBe(0), { timeout: 10_000, interval: 20 })
    const before = statSync(cache).size
    await call(core, 'sync.start', { resources: ['inspections'], mode: 'full' })
    await core.sync.idle()
    // A second after the last write the log reaches the file, copied by the page thread.
    await vi.waitFor(() => expect(statSync(cache).size).toBeGreaterThan(before + 100_000), {
      timeout: 10_000,
      interval: 20,
    })
    expect(liveStoreThreads(SOURCE_PAGE_WORKER)).toBe(1)
    expect(ownThreads()).toBe(0)
  })
})
