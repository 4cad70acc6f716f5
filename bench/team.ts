import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { randomBytes } from 'node:crypto'
import { openStore, transaction } from '../src/core/store/schema/database'
import { configureTeam, queueReviewEvent } from '../src/core/store/team-side'
import { addMember, grantPartner } from '../src/core/team/admin'
import { connectClient, type TeamServerConfig } from '../src/core/team/connection'
import { directTeamCall, StoreTeamSide } from '../src/core/team/store-side'
import { TeamSync } from '../src/core/team/team-sync'
import { demoCredentials, startSandbox } from '../src/sandbox'
import { startTeamCluster, type TeamCluster } from '../tests/support/team-cluster'
import { bootTeamCore } from '../tests/support/team-core'
import { migrate } from '../src/core/team/admin'

/**
 * The team keys of `npm run bench`, against a throwaway PostgreSQL cluster
 * started here the way the team tests start theirs
 * (tests/support/team-cluster.ts), over loopback with TLS:
 * - `team_mark_visible_ms`: median from `reviews.set` on one app core to the
 *   mark in the other core's `inspections.query` answer;
 * - `team_push_10k_ms`: an offline backlog of 10,000 marks pushed on reconnect;
 * - `team_pull_10k_ms`: a new machine pulling those 10,000 events.
 * Without PostgreSQL's binaries it prints why and records nothing, except in
 * CI, where it fails.
 */

type Record_ = (name: string, value: number, unit: string, target?: string | null) => void

const BACKLOG = 10_000
const VISIBLE_RUNS = 15

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

async function startCluster(): Promise<TeamCluster | null> {
  try {
    return await startTeamCluster()
  } catch (error) {
    const missing = error instanceof Error && error.message.includes('need a PostgreSQL server')
    if (!missing || process.env['CI']) throw error
    console.log(`# team: skipped, ${error.message}`)
    return null
  }
}

/** Runs the team part and records its keys. */
export async function benchTeam(record: Record_): Promise<void> {
  const cluster = await startCluster()
  if (!cluster) return
  const admin = await connectClient({
    host: cluster.host,
    port: cluster.port,
    database: cluster.database,
    user: cluster.adminUser,
    password: cluster.adminPassword,
    tls: 'verify-full',
    caFile: cluster.caFile,
  })
  try {
    await migrate(admin)
    const member = async (team: string, prefix: string): Promise<TeamServerConfig> => {
      const role = `${prefix}_${randomBytes(4).toString('hex')}`
      const password = `pw-${randomBytes(8).toString('hex')}`
      await addMember(admin, { team, role, password, displayName: prefix })
      return {
        host: cluster.host,
        port: cluster.port,
        database: cluster.database,
        user: role,
        password,
        tls: 'verify-full',
        caFile: cluster.caFile,
      }
    }

    // Two app cores on one partner account.
    console.log('\n# team (PostgreSQL on loopback, TLS)')
    const sandbox = await startSandbox({ seed: 77, size: 200 })
    await grantPartner(admin, 'bench', demoCredentials(77).partnerId)
    const a = await bootTeamCore(sandbox, await member('bench', 'minji'))
    const b = await bootTeamCore(sandbox, await member('bench', 'jisoo'))
    try {
      for (const core of [a, b])
        await core.until(async () => (await core.status()).state === 'connected')
      const idxs = (await a.call('inspections.query', { limit: VISIBLE_RUNS })).rows.map(
        (row) => row.idx,
      )
      const times: number[] = []
      for (const [i, idx] of idxs.entries()) {
        const note = `bench ${i}`
        const started = performance.now()
        await a.call('reviews.set', { resource: 'inspections', idx, mark: 'reviewed', note })
        await b.until(async () => {
          const page = await b.call('inspections.query', { limit: VISIBLE_RUNS })
          return page.rows.find((row) => row.idx === idx)?.review?.note === note
        })
        times.push(performance.now() - started)
      }
      record('team_mark_visible_ms', median(times), 'ms', '< 300')
    } finally {
      await a.close()
      await b.close()
      await sandbox.close()
    }

    // An offline backlog pushed on reconnect, then pulled by a new machine.
    const partner = `bench_${randomBytes(4).toString('hex')}`
    await grantPartner(admin, 'bench_backlog', partner)
    const writer = await member('bench_backlog', 'writer')
    const reader = await member('bench_backlog', 'reader')
    const dir = mkdtempSync(join(tmpdir(), 'bench-team-'))
    const writerDb = openStore(join(dir, 'writer.sqlite')).db
    const identity = { role: writer.user, displayName: 'writer' }
    transaction(writerDb, () => {
      configureTeam(writerDb, { identity })
      for (let idx = 1; idx <= BACKLOG; idx += 1) {
        queueReviewEvent(writerDb, identity, {
          resource: 'guarantees',
          idx,
          mark: idx % 2 ? 'reviewed' : 'follow_up',
          note: `backlog ${idx}`,
          clientTime: new Date().toISOString(),
        })
      }
    })
    record('team_push_10k_ms', await timeSync(writer, partner, writerDb, 'push'), 'ms', '< 3000')
    writerDb.close()

    const readerDb = openStore(join(dir, 'reader.sqlite')).db
    transaction(readerDb, () =>
      configureTeam(readerDb, { identity: { role: reader.user, displayName: 'reader' } }),
    )
    record('team_pull_10k_ms', await timeSync(reader, partner, readerDb, 'pull'), 'ms', '< 2000')
    readerDb.close()
  } finally {
    await admin.end()
    await cluster.stop()
  }
}

/**
 * Starts a loop on `db` and answers the ms until its outbox is empty
 * (`push`) or it has applied {@link BACKLOG} pulled events (`pull`).
 */
async function timeSync(
  config: TeamServerConfig,
  partnerId: string,
  db: ReturnType<typeof openStore>['db'],
  until: 'push' | 'pull',
): Promise<number> {
  const local = new StoreTeamSide(directTeamCall(db), 'Asia/Seoul')
  let pulled = 0
  let finished: (ms: number) => void = () => undefined
  const done = new Promise<number>((resolve) => (finished = resolve))
  const ack = local.ackOutbox.bind(local)
  const apply = local.applyPulled.bind(local)
  let started = 0
  local.ackOutbox = async (ids) => {
    await ack(ids)
    if (until === 'push' && (await local.countOutbox()).unsent === 0)
      finished(performance.now() - started)
  }
  local.applyPulled = async (events, upTo) => {
    await apply(events, upTo)
    pulled += events.length
    if (until === 'pull' && pulled >= BACKLOG) finished(performance.now() - started)
  }
  const sync = new TeamSync({ config, partnerId, local })
  started = performance.now()
  sync.start()
  const ms = await done
  await sync.stop()
  return ms
}
