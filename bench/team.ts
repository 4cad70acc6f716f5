import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { randomBytes } from 'node:crypto'
import { openStore, transaction } from '../src/core/store/schema/database'
import { configureTeam, queueReviewEvent } from '../src/core/store/team-side'
import type { TeamServerConfig } from '../src/core/team/connection'
import { directTeamCall, StoreTeamSide } from '../src/core/team/store-side'
import { TeamSync } from '../src/core/team/team-sync'
import { demoCredentials, startSandbox, type Sandbox } from '../src/sandbox'
import {
  addTeam,
  clusterAdmin,
  startTeamCluster,
  type TeamCluster,
} from '../tests/support/team-cluster'
import { bootTeamCore, type TeamCore } from '../tests/support/team-core'
import { migrate } from '../src/core/team/admin'
import type { PresenceView } from '../src/shared/team'

/**
 * The team keys of `npm run bench`, against a throwaway PostgreSQL cluster
 * started here the way the team tests start theirs
 * (tests/support/team-cluster.ts), over loopback with TLS:
 * - `team_mark_visible_ms`: median from `reviews.set` on one app core to the
 *   mark in the other core's `inspections.query` answer;
 * - `team_push_10k_ms`: an offline backlog of 10,000 marks pushed on reconnect;
 * - `team_pull_10k_ms`: a new machine pulling those 10,000 events;
 * - `team_bulk_mark_10k_ms`: `reviews.setMany` of {@link BULK} records (every
 *   row of a filter), call to answer, on one core;
 * - `team_bulk_visible_10k_ms`: from that call to all of them in the other
 *   core's `inspections.query` answers;
 * - `team_presence_visible_ms`: median from `presence.set` on one core to
 *   the `presence.changed` event on the other that shows it;
 * - `team_reconnect_after_outage_ms`: the server stopped, 100 marks made on a
 *   core meanwhile, the server started again: from its return to all of them
 *   pushed, with the app's own reconnect backoff.
 * `BENCH_TEAM_BULK` shrinks the bulk for a quick look (the key keeps its name).
 * Without PostgreSQL's binaries it prints why and records nothing, except in
 * CI, where it fails.
 */

type Record_ = (name: string, value: number, unit: string, target?: string | null) => void

const BACKLOG = 10_000
/** Records of the bulk keys (and of the sandbox the two cores share). */
const BULK = Number(process.env['BENCH_TEAM_BULK'] ?? 10_000)
/** Marks made while the server is away. */
const OUTAGE_MARKS = 100
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
  const admin = await clusterAdmin(cluster)
  let sandbox: Sandbox | null = null
  // The account of the offline backlog's team ('bench_backlog'); 'bench' shares the sandbox's.
  const partner = `bench_${randomBytes(4).toString('hex')}`
  try {
    await migrate(admin)
    const member = async (team: string, prefix: string): Promise<TeamServerConfig> => {
      const role = `${prefix}_${randomBytes(4).toString('hex')}`
      const [config] = await addTeam(admin, cluster, {
        team,
        partner: team === 'bench' ? demoCredentials(77).partnerId : partner,
        members: [{ role, displayName: prefix }],
      })
      return config!
    }

    // Two app cores on one partner account.
    console.log('\n# team (PostgreSQL on loopback, TLS)')
    sandbox = await startSandbox({ seed: 77, size: BULK })
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
      await benchBulk(record, a, b)
      record('team_presence_visible_ms', await benchPresence(a, b), 'ms', '≤ 1000')
    } finally {
      await a.close()
      await b.close()
    }

    // An offline backlog pushed on reconnect, then pulled by a new machine.
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

    record(
      'team_reconnect_after_outage_ms',
      await benchOutage(cluster, sandbox, await member('bench', 'outage')),
      'ms',
      '≤ 5000',
    )
  } finally {
    await sandbox?.close()
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

/**
 * `team_bulk_mark_10k_ms` and `team_bulk_visible_10k_ms`: core `a` marks
 * every inspection in one `reviews.setMany` (a filter's rows); core `b`
 * queries the list of records `a` marked that way until it holds all of them.
 */
async function benchBulk(record: Record_, a: TeamCore, b: TeamCore): Promise<void> {
  const role = (await a.call('team.members')).me
  const total = (await a.call('inspections.query', { limit: 1 })).total
  if (total !== BULK) throw new Error(`the sandbox holds ${total} inspections, not ${BULK}`)
  const note = 'bench bulk'
  const started = performance.now()
  const { count } = await a
    .call('reviews.setMany', { resource: 'inspections', filter: {}, mark: 'follow_up', note })
    .then(({ action }) => action)
  const answered = performance.now()
  if (count !== BULK) throw new Error(`reviews.setMany marked ${count} of ${BULK}`)
  record('team_bulk_mark_10k_ms', answered - started, 'ms', '≤ 500')
  const seen = async (): Promise<boolean> => {
    const page = await b.call('inspections.query', {
      limit: 1,
      review: 'follow_up',
      markedBy: { role: role ?? '' },
    })
    return page.total === BULK
  }
  await b.until(seen)
  record('team_bulk_visible_10k_ms', performance.now() - started, 'ms', '≤ 3000')
  await a.settled()
}

/**
 * `team_reconnect_after_outage_ms`: a core with the app's own backoff makes
 * {@link OUTAGE_MARKS} marks while the server is stopped; the time from the
 * server's return (`pg_ctl start` answered) until the core's outbox is empty.
 */
async function benchOutage(
  cluster: TeamCluster,
  sandbox: Sandbox,
  config: TeamServerConfig,
): Promise<number> {
  const core = await bootTeamCore(sandbox, config, { appBackoff: true })
  try {
    await core.settled()
    const idxs = (await core.call('inspections.query', { limit: OUTAGE_MARKS })).rows.map(
      (row) => row.idx,
    )
    await cluster.pause()
    await core.until(async () => (await core.status()).state === 'offline')
    for (const [i, idx] of idxs.entries()) {
      await core.call('reviews.set', {
        resource: 'inspections',
        idx,
        mark: 'reviewed',
        note: `offline ${i}`,
      })
    }
    await core.until(async () => {
      const status = await core.status()
      return status.state !== 'none' && status.unsent === idxs.length
    })
    await cluster.resume()
    const back = performance.now()
    await core.settled()
    return performance.now() - back
  } finally {
    await core.close()
  }
}

/**
 * `team_presence_visible_ms`: core `a` opens a record ({@link VISIBLE_RUNS}
 * different ones in turn); the time until core `b`'s `presence.changed`
 * event shows `a` on it. Answers the median.
 */
async function benchPresence(a: TeamCore, b: TeamCore): Promise<number> {
  const role = (await a.call('team.members')).me
  const idxs = (await a.call('inspections.query', { limit: VISIBLE_RUNS })).rows.map(
    (row) => row.idx,
  )
  let shown: PresenceView = { present: [] }
  const off = b.core.events.subscribe((event, payload) => {
    if (event === 'presence.changed') shown = payload as PresenceView
  })
  const times: number[] = []
  try {
    for (const idx of idxs) {
      const started = performance.now()
      await a.call('presence.set', { resource: 'inspections', idx })
      await b.until(() => shown.present.some((entry) => entry.role === role && entry.idx === idx))
      times.push(performance.now() - started)
    }
  } finally {
    off()
  }
  return median(times)
}
