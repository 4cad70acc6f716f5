import { parentPort, workerData } from 'node:worker_threads'
import { AppError } from '../app-error'
import { yieldToMainThread } from '../threads/spawn'
import type { TeamLinkCall } from '../owner/team-link'
import { StoreTeamSide, type TeamStoreCall } from './store-side'
import type { PulledApplied } from '../store/team-side'
import {
  readFromTeamLink,
  readTeamWorkerData,
  readToTeamWorker,
  type FromTeamWorker,
} from './team-protocol'
import { TeamSync } from './team-sync'

/**
 * The team worker of the active profile: runs the {@link TeamSync} loop (the
 * PostgreSQL connection, LISTEN, push, pull, backoff) off the main thread.
 * Its local side is the profile's store, reached over its own link to the
 * database owner (`owner/team-link.ts`); the main thread (`team-thread.ts`)
 * hears its status, presence and what a pulled page changed (messages in
 * `team-protocol.ts`).
 */
if (!parentPort) throw new Error('team-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
const started = readTeamWorkerData(workerData)
if (started === null) throw new Error('team-worker was started without its settings')
const data = started

function send(message: FromTeamWorker): void {
  port.postMessage(message)
}

interface Waiter {
  readonly op: string
  resolve(value: unknown): void
  reject(error: AppError): void
}
const pending = new Map<number, Waiter>()
let nextId = 1
const store = data.store
/** Set once the owner's end is gone (its profile closed): every call fails with it. */
let storeGone: AppError | null = null

store.on('message', (raw: unknown) => {
  const answer = readFromTeamLink(raw)
  if (answer === null) return
  const waiter = pending.get(answer.id)
  pending.delete(answer.id)
  if (!waiter) return
  if (answer.type === 'error') {
    waiter.reject(AppError.fromData(answer.error))
    return
  }
  // A pulled page's effects reach the main thread, which tells the windows.
  if (waiter.op === 'teamApplyPulled')
    send({ type: 'applied', applied: { ...(answer.value as PulledApplied) } })
  waiter.resolve(answer.value)
})
store.on('close', () => {
  storeGone = new AppError('internal', 'The profile’s cache was closed.')
  for (const waiter of pending.values()) waiter.reject(storeGone)
  pending.clear()
})

const call: TeamStoreCall = (op, args) => {
  if (storeGone) return Promise.reject(storeGone)
  const id = nextId
  nextId += 1
  return new Promise((resolve, reject) => {
    // The owner ran the operation named `op`, so the answer is that operation's result.
    pending.set(id, { op, resolve: resolve as (value: unknown) => void, reject })
    store.postMessage({ type: 'call', id, op, args } satisfies TeamLinkCall)
  })
}

const sync = new TeamSync({
  config: data.config,
  partnerId: data.partnerId,
  local: new StoreTeamSide(call, data.timeZone),
  onStatus: (status) => send({ type: 'status', status: { ...status } }),
  ...(data.backoffMs ? { backoffMs: data.backoffMs } : {}),
  ...(data.pollMs ? { pollMs: data.pollMs } : {}),
  ...(data.pushBatch ? { pushBatch: data.pushBatch } : {}),
  ...(data.presence ? { presence: data.presence } : {}),
  onPresence: (present) => send({ type: 'presence', present: [...present] }),
})

port.on('message', (raw: unknown) => {
  const message = readToTeamWorker(raw)
  if (message === null) return
  switch (message.type) {
    case 'nudge':
      sync.nudge()
      return
    case 'retry':
      sync.retry()
      return
    case 'presence':
      sync.setPresence(message.at)
      return
    case 'stop':
      void sync.stop().finally(() => {
        store.close()
        process.exit(0)
      })
      return
  }
})

sync.start()
