import { parentPort, workerData } from 'node:worker_threads'
import { AppError } from '../app-error'
import { yieldToMainThread } from '../threads/spawn'
import { StoreTeamSide, type TeamStoreCall } from './store-side'
import { teamWorkerDataSchema, toTeamWorkerSchema, type FromTeamWorker } from './team-protocol'
import { TeamSync } from './team-sync'

/**
 * The team worker of the active profile: runs the {@link TeamSync} loop (the
 * PostgreSQL connection, LISTEN, push, pull, backoff) off the main thread.
 * Its local side is the profile's store, reached through the main thread
 * (`team-thread.ts` is the main side; messages in `team-protocol.ts`).
 */
if (!parentPort) throw new Error('team-worker runs only as a worker thread')
yieldToMainThread()
const port = parentPort
const data = teamWorkerDataSchema.parse(workerData)

function send(message: FromTeamWorker): void {
  port.postMessage(message)
}

interface Waiter {
  resolve(value: unknown): void
  reject(error: AppError): void
}
const pending = new Map<number, Waiter>()
let nextId = 1

const call: TeamStoreCall = (op, args) => {
  const id = nextId
  nextId += 1
  return new Promise((resolve, reject) => {
    // The owner ran the operation named `op`, so the answer is that operation's result.
    pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
    send({ type: 'call', id, op, args })
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
  const parsed = toTeamWorkerSchema.safeParse(raw)
  if (!parsed.success) return
  const message = parsed.data
  switch (message.type) {
    case 'done':
    case 'error': {
      const waiter = pending.get(message.id)
      pending.delete(message.id)
      if (message.type === 'done') waiter?.resolve(message.value)
      else waiter?.reject(AppError.fromData(message.error))
      return
    }
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
      void sync.stop().finally(() => process.exit(0))
      return
  }
})

sync.start()
