import { statSync } from 'node:fs'
import type { DatabaseSync } from 'node:sqlite'
import { BroadcastChannel } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { openStore } from '../../../src/core/store/schema/database'
import { Checkpointer } from '../../../src/core/owner/checkpointer'
import { storeFileFor } from '../../../src/core/store/paths'
import { liveStoreThreads, type ThreadEntry } from '../../../src/core/threads/spawn'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profiles'
import { bootForTest, call } from '../helpers/core'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { tempDir } from './fixtures'

const OWN = SOURCE_STORE_WORKER.checkpointer

/** The checkpointer's threads still running. */
const ownThreads = (entry: ThreadEntry = OWN): number => liveStoreThreads(entry)

/**
 * A checkpointer thread that tells the test each `run` on `channel` and
 * answers it only when the test posts `release` there.
 */
function heldEntry(channel: string): ThreadEntry {
  const source = `import { parentPort, workerData, BroadcastChannel } from 'node:worker_threads'
if (workerData.deepCheck) parentPort.postMessage('checked')
const test = new BroadcastChannel(${JSON.stringify(channel)})
let waiting = 0
test.onmessage = () => { if (waiting > 0) { waiting -= 1; parentPort.postMessage('done') } }
parentPort.on('message', (m) => {
  if (m === 'close') { test.close(); process.exit(0) }
  waiting += 1
  test.postMessage('ran')
})`
  return { url: new URL(`data:text/javascript,${encodeURIComponent(source)}`) }
}

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

/** Writes about 800 kB to the log; answers the file's size before. */
function fillLog(): number {
  writer.exec('CREATE TABLE IF NOT EXISTS filler (x BLOB)')
  const insert = writer.prepare('INSERT INTO filler VALUES (randomblob(4000))')
  for (let i = 0; i < 200; i += 1) insert.run()
  return statSync(file).size
}

describe('the checkpointer', () => {
  it('runs one checkpoint at a time: requests meanwhile make one more after it', async () => {
    const name = `checkpointer-test-${process.pid}-${Date.now()}`
    const test = new BroadcastChannel(name)
    const ran: string[] = []
    test.onmessage = (event) => ran.push(String((event as MessageEvent).data))
    const checkpoints = new Checkpointer(file, heldEntry(name), undefined, { idleMs: 60_000 })
    closers.unshift(async () => {
      await checkpoints.close()
      test.close()
    })
    checkpoints.request()
    checkpoints.request()
    checkpoints.request()
    await vi.waitFor(() => expect(ran).toEqual(['ran']), { timeout: 10_000, interval: 5 })
    test.postMessage('release')
    // The requests made meanwhile: one more checkpoint, and no third.
    await vi.waitFor(() => expect(ran).toEqual(['ran', 'ran']), { timeout: 10_000, interval: 5 })
    test.postMessage('release')
    checkpoints.request()
    await vi.waitFor(() => expect(ran).toHaveLength(3), { timeout: 10_000, interval: 5 })
    test.postMessage('release')
    expect(ownThreads(heldEntry(name))).toBe(1)
  })

  it('close stops its thread, and later requests start none', async () => {
    const checkpoints = new Checkpointer(file, OWN, undefined, { idleMs: 60_000 })
    const before = fillLog()
    checkpoints.request()
    await vi.waitFor(() => expect(statSync(file).size).toBeGreaterThan(before + 700_000), {
      timeout: 10_000,
      interval: 20,
    })
    expect(ownThreads()).toBe(1)
    await checkpoints.close()
    expect(ownThreads()).toBe(0)
    checkpoints.request()
    expect(ownThreads()).toBe(0)
  })
})

describe('the app', () => {
  it("runs a sync's checkpoints on the profile's checkpointer thread, never on the page thread", async () => {
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
    // A second after the last write a checkpoint starts the checkpointer, which copies the log.
    await vi.waitFor(() => expect(ownThreads()).toBe(1), { timeout: 10_000, interval: 5 })
    await vi.waitFor(() => expect(statSync(cache).size).toBeGreaterThan(before + 100_000), {
      timeout: 10_000,
      interval: 20,
    })
    expect(liveStoreThreads(SOURCE_PAGE_WORKER)).toBe(1)
  })
})
