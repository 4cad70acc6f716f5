import { spawnSync } from 'node:child_process'
import { linkSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { StoreConnection } from '../src/core/store/connection'
import type { PartnerClient } from '../src/core/api/client'
import { listCsv } from '../src/core/export/list-csv'
import { readInspection } from '../src/core/api/read-records'
import { DATA_CHANGED_MS, EventBus } from '../src/core/events'
import { holdMainYoungGeneration } from '../src/core/heap-sizing'
import { openStore, transaction } from '../src/core/store/schema/database'
import { storeFileFor } from '../src/core/store/paths'
import { queryInspections } from '../src/core/store/queries/list-queries'
import type { ListRequest } from '../src/core/store/queries/list-sql'
import type { GuaranteeRecord, InspectionRecord } from '../src/core/store/record-types'
import { dashboard } from '../src/core/store/queries/dashboard'
import { queryReconcile } from '../src/core/store/queries/reconcile'
import { insertWalletLink } from '../src/core/store/queries/wallet-history'
import { RECONCILE_KINDS } from '../src/shared/reconcile'
import { SYNC_RESOURCES } from '../src/shared/resources'
import { buildCellIndexes } from '../src/core/store/search/cell-index'
import { compactStore } from '../src/core/store/write/page-writer'
import { StoreOwner } from '../src/core/owner/store-owner'
import { listChanges } from '../src/core/store/queries/change-queries'
import { bumpDataVersion } from '../src/core/store/data-version'
import { upsertGuarantees, upsertInspections } from '../tests/support/store-writes'
import { clientSyncSource } from '../src/core/sync/paged-pass'
import { PageThread } from '../src/core/sync/page-thread/client'
import { SyncEngine } from '../src/core/sync/sync-engine'
import { sourceThreads } from '../src/core/threads/source-entries'
import { benchLive } from './live'
import { createMatcher } from '../tests/support/matcher'
import { Dataset } from '../src/sandbox/dataset'
import { SANDBOX_ANCHOR } from '../tests/support/anchor'
import { agingShapes, changeShapes, seedChanges } from './changes-feed'
import { markSome, printShapes, timeCounts, timeShapes } from './query-shapes'
import { benchTeam } from './team'
import { bundleBenchChildren } from './bundle'
import { mainLoopDelays, mainThreadStretches, type LoopDelays } from './loop-probes'
import { clientOf, startSandboxChild, type SandboxChild } from './sandbox-client'
import type { SyncChildReport } from './sync-child'
import { guaranteePages } from '../tests/support/page-walks'

/**
 * `npm run bench`: the store and sync measured side by side in one run.
 * - sync: a full sync of N guarantees from a sandbox in a child process
 *   over loopback, against a bare loop that only fetches and `JSON.parse`s
 *   the same pages (plain `fetch`, the same headers, as many requests in
 *   flight as the sync ended up using), and against the client's own loop
 *   (records read, no store); then the same against a sandbox that delays
 *   every request 50 ms (`BENCH_LATENCY_SIZE` guarantees, default the sync's size up to 50,000),
 *   the sync with its own defaults, the bare loop at 8 in flight;
 * - queries: a filtered, text-searched query over 100k and 1M stored
 *   inspections, against the same query over a JSON array in JavaScript.
 * - query shapes: every shape the lists offer (each filter, sort, text of
 *   two or more characters, 초성, digits, one character), its median and
 *   its plan, and all tab and badge counts together.
 * Prints a table and writes bench/results.json `{ metric: { value, unit, target } }`.
 * `BENCH_SYNC_SIZE` and `BENCH_QUERY_SIZES` (comma-separated) shrink it for a quick look;
 * `BENCH_PARTS=queries` (or `sync`, which includes the 50 ms run, `latency`, `team`: the
 * team server's keys, bench/team.ts, or `live`: the live schedule's keys, bench/live.ts) runs
 * one part only.
 */

type Metric = { value: number; unit: string; target: string | null }
const results: Record<string, Metric> = {}
const root = resolve(import.meta.dirname, '..')
const SYNC_SIZE = Number(process.env['BENCH_SYNC_SIZE'] ?? 100_000)
const QUERY_SIZES = (process.env['BENCH_QUERY_SIZES'] ?? '100000,1000000')
  .split(',')
  .filter(Boolean)
  .map(Number)
/** Requests in flight of the client's own loop (`bare_fetch_ms`), as before the limit adapted. */
const CONCURRENCY = 3
/**
 * Guarantees of the 50 ms run: the sync's size up to 50,000 (500 pages, about 3 s a run at 8 in
 * flight, so the first page asked alone and the ramp to 8 weigh what they weigh in a real sync).
 */
const LATENCY_SIZE = Number(process.env['BENCH_LATENCY_SIZE'] ?? Math.min(SYNC_SIZE, 50_000))
/** The bare loop's requests in flight against the slow sandbox (the issue's fixed count). */
const LATENCY_IN_FLIGHT = 8
const PARTS = (process.env['BENCH_PARTS'] ?? 'sync,trickle,queries,team,live').split(',')
/** The overall deadline of each run in the trickle part (the app's default is minutes). */
const TRICKLE_DEADLINE_MS = 10_000

/**
 * The keys the issues name, as they are at 1M stored records; at another
 * size the `1m` in them is that size's label (`100k`, …).
 */
const SIZED_KEYS = {
  queryMax: 'query_max_ms_1m',
  queryOneChar: 'query_1char_ms_1m',
  counts: 'counts_ms_1m',
  mainLoopQuery: 'main_loop_max_ms_query_1m',
  mainLoopListOpen: 'main_loop_max_ms_sync_1m_list_open',
  changesList: 'changes_list_ms_1m',
  agingQuery: 'aging_query_ms_1m',
  agingList: 'aging_list_ms_1m',
} as const

/** A {@link SIZED_KEYS} key for the size labelled `label`. */
function sizedKey(key: keyof typeof SIZED_KEYS, label: string): string {
  return SIZED_KEYS[key].replace(/_1m(?=_|$)/, `_${label}`)
}

function record(name: string, value: number, unit: string, target: string | null = null): void {
  results[name] = { value: Math.round(value * 1000) / 1000, unit, target }
  console.log(
    `${name.padEnd(32)} ${String(results[name].value).padStart(12)} ${unit.padEnd(8)} ${target ?? ''}`,
  )
}

/** A full garbage collection of this thread (`--expose-gc`, set at run time). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc')
  ;(runInNewContext('gc') as () => void)()
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)] ?? NaN
}

/** Runs `fetchPage` for pages 1..ceil(total / pageSize), `inFlight` at a time; the entries seen. */
async function eachPage(
  pageSize: number,
  total: number,
  inFlight: number,
  fetchPage: (page: number) => Promise<number>,
): Promise<number> {
  const pages = Math.ceil(total / pageSize)
  let next = 1
  let items = 0
  const worker = async (): Promise<void> => {
    while (next <= pages) {
      const page = next
      next += 1
      // Not `items += await …`: that reads `items` before the wait, losing other workers' counts.
      const received = await fetchPage(page)
      items += received
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker))
  return items
}

/** The client's own loop: same client, same pages; records read, no store. */
function clientFetch(client: PartnerClient, pageSize: number, total: number): Promise<number> {
  return eachPage(pageSize, total, CONCURRENCY, async (page) => {
    const answer = await client.listGuarantees({ page, pageSize, sort: 'latest' })
    return answer.items.length
  })
}

/**
 * The bare loop: plain `fetch` of the same pages with the headers the
 * service needs, and `JSON.parse` of each body; nothing else.
 */
function bareFetchParse(
  sandbox: SandboxChild,
  pageSize: number,
  total: number,
  inFlight: number,
): Promise<number> {
  const headers = {
    Accept: 'application/json',
    'X-Service-API-Key': sandbox.apiKey,
    Authorization: sandbox.apiSecret,
  }
  const base = `${sandbox.baseUrl}/v1/partner/${encodeURIComponent(sandbox.partnerId)}/guarantee`
  return eachPage(pageSize, total, inFlight, async (page) => {
    const response = await fetch(`${base}?page=${page}&pageSize=${pageSize}&sort=latest`, {
      headers,
    })
    if (!response.ok) throw new Error(`bare fetch: status ${response.status}`)
    const body = JSON.parse(await response.text()) as { data: unknown[] }
    return body.data.length
  })
}

/** Records a main-loop figure (`maxKey`, with its `_5ms_ticks` twin) and its 99th percentile. */
function recordMainLoop(maxKey: string, p99Key: string, loop: LoopDelays, target: string): void {
  record(maxKey, loop.max, 'ms', target)
  record(`${maxKey}_5ms_ticks`, loop.max5, 'ms')
  record(p99Key, loop.p99, 'ms')
}

/** The sync in the app's process: a bundled child (`sync-child.ts`) on the store folder `dir`. */
function syncInChild(sandbox: SandboxChild, children: string, dir: string): SyncChildReport {
  const { baseUrl, partnerId, apiKey, apiSecret } = sandbox
  const child = spawnSync(
    process.execPath,
    [
      join(children, 'sync-child.mjs'),
      JSON.stringify({ baseUrl, partnerId, apiKey, apiSecret, dir }),
    ],
    { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const line = child.stdout.split('\n').find((l) => l.startsWith('SYNC='))
  if (!line) throw new Error(`sync-child failed (status ${child.status}): ${child.stdout}`)
  return JSON.parse(line.slice('SYNC='.length)) as SyncChildReport
}

/**
 * The same sync in this process, its paths warmed up (TypeScript sources via
 * tsx): the main thread's loop and longest stretch of its own CPU time.
 */
async function warmSync(
  sandbox: SandboxChild,
  dir: string,
): Promise<{ loop: LoopDelays; cpuMaxMs: number; gaps: string }> {
  // The main thread's heap as the app's core holds it (`core/heap-sizing.ts`), for this run only.
  holdMainYoungGeneration()
  const pages = new PageThread(THREADS.pageWorker)
  try {
    const store = await openOwner(dir)
    const cpu = mainThreadStretches()
    const delays = mainLoopDelays()
    const sync = await appSync(sandbox, store, pages)
    const loop = delays.stop()
    const cpuMaxMs = cpu.stop()
    await sync.store.close()
    return { loop, cpuMaxMs, gaps: cpu.gaps() }
  } finally {
    await pages.close()
    rmSync(dir, { recursive: true, force: true })
    // V8's defaults again for the rest of the bench.
    setFlagsFromString('--semi-space-growth-factor=2')
    setFlagsFromString('--min-semi-space-size=0')
  }
}

async function benchSync(children: string): Promise<void> {
  console.log(`\n# sync of ${SYNC_SIZE} guarantees (sandbox in a child process, loopback)`)
  const sandbox = await startSandboxChild(SYNC_SIZE)
  const dir = mkdtempSync(join(tmpdir(), 'bench-sync-'))
  try {
    const client = clientOf(sandbox)
    const probe = await client.listGuarantees({ page: 1, pageSize: 500, sort: 'latest' })
    const pageSize = probe.items.length
    // The sync first, in the app's process (a child: the loops below and this process's own
    // memory are not the app's), then each reference loop twice in this one, averaged.
    const sync = syncInChild(sandbox, children, dir)
    console.log(`main thread's longest waits during the sync (its process): ${sync.gaps}`)
    const writes = sync.writes
    // Only a complete first full pass is compacted (the store figure below counts on it).
    console.log(
      `write step: ${writes.records} records in ${writes.pages} pages, ${writes.commits} commits; the pass ${sync.complete ? 'was complete' : 'was NOT complete (no compaction)'}`,
    )
    // Warm-up of every path in this process (JIT, sockets), then the same sync again here, for the
    // main thread's figures: they measure its own work in a steady state, which the child's cold
    // start (its first request loads Node's fetch, one block of its own) is reported beside.
    await clientFetch(client, pageSize, Math.min(SYNC_SIZE, 5000))
    await bareFetchParse(sandbox, pageSize, Math.min(SYNC_SIZE, 5000), CONCURRENCY)
    const warm = await warmSync(sandbox, mkdtempSync(join(tmpdir(), 'bench-sync-warm-')))
    console.log(`main thread's longest waits during the warm sync: ${warm.gaps}`)
    const bare: number[] = []
    const own: number[] = []
    const bareCpu: number[] = []
    let bareItems = 0
    for (let run = 0; run < 2; run += 1) {
      let t = performance.now()
      const before = process.cpuUsage()
      bareItems = await bareFetchParse(sandbox, pageSize, SYNC_SIZE, sync.inFlight)
      const used = process.cpuUsage(before)
      bareCpu.push(used.user + used.system)
      bare.push(performance.now() - t)
      t = performance.now()
      await clientFetch(client, pageSize, SYNC_SIZE)
      own.push(performance.now() - t)
    }
    const bareMs = (bare[0]! + bare[1]!) / 2
    const ownMs = (own[0]! + own[1]!) / 2

    console.log(
      `pages of ${pageSize}; sync ended at ${sync.inFlight} in flight; bare fetch+parse runs ${bare.map((ms) => ms.toFixed(0)).join(' / ')} ms (${sync.inFlight} in flight); client loop runs ${own.map((ms) => ms.toFixed(0)).join(' / ')} ms (${CONCURRENCY} in flight); ${bareItems} items`,
    )
    console.log(
      `sync process's CPU time by thread (ms): ${sync.perThread.map(([name, ms]) => `${name} ${ms}`).join(', ')}`,
    )
    console.log(
      `sync process's writes by thread (files and sockets): ${sync.writesByThread.map(([name, mb, calls]) => `${name} ${mb} MB in ${calls} calls`).join(', ')}`,
    )
    console.log(
      `sync process: RSS ${(sync.rssBefore / 2 ** 20).toFixed(0)} MB with the store open, peak ${(sync.peak / 2 ** 20).toFixed(0)} MB`,
    )
    record('bare_fetch_ms', ownMs, 'ms')
    record('bare_fetch_parse_ms', bareMs, 'ms', 'reference')
    record('sync_ms', sync.ms, 'ms')
    record('sync_vs_bare_ratio', sync.ms / bareMs, 'ratio')
    record('sync_cpu_us_per_record', sync.cpuMicros / SYNC_SIZE, 'µs', '<= 30')
    record('bare_cpu_us_per_record', (bareCpu[0]! + bareCpu[1]!) / 2 / SYNC_SIZE, 'µs')
    record('sync_records_per_s', (SYNC_SIZE / sync.ms) * 1000, 'rec/s')
    record('write_us_per_record', writes.cpuMicros / writes.records, 'µs', '<= 40')
    record('sync_max_main_thread_write_ms', sync.maxStepMs, 'ms', '< ~20 (per step)')
    record('sync_max_event_loop_block_ms', warm.loop.max, 'ms')
    record('main_loop_max_ms_sync', warm.loop.max, 'ms')
    record('main_loop_max_ms_sync_5ms_ticks', warm.loop.max5, 'ms')
    record('main_loop_p99_ms_sync', warm.loop.p99, 'ms', '<= 10')
    // The same thread's longest stretch of its own CPU time between two 5 ms ticks: what it
    // ran itself, which waiting for a core on a busy machine does not inflate.
    record('main_cpu_stretch_max_ms_sync', warm.cpuMaxMs, 'ms', '<= 10')
    // The same in the app's process, cold: its first request loads Node's fetch.
    record('main_cpu_stretch_max_ms_sync_cold', sync.cpuMaxMs, 'ms')
    record('main_loop_p99_ms_sync_cold', sync.loop.p99, 'ms')
    record('sync_peak_rss_mb', sync.peak / 2 ** 20, 'MB', '<= 200')
    record('sync_peak_rss_growth_mb', (sync.peak - sync.rssBefore) / 2 ** 20, 'MB')
    // Counted on the main thread's thread-message path during the sync: 0 when nothing is relayed.
    record('sync_main_relay_bytes_per_record', sync.relayBytes / SYNC_SIZE, 'B', '0')
    record(
      'store_mb_per_100k_guarantees',
      (sync.bytes / 2 ** 20) * (100_000 / SYNC_SIZE),
      'MB',
      '<= 50',
    )
  } finally {
    sandbox.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A full sync of the guarantees as the app runs it, in this process: its own
 * defaults, into a store owned by its thread, opened beforehand (the app
 * opens a profile's store when the profile opens, not when it syncs).
 */
async function appSync(
  sandbox: SandboxChild,
  store: StoreOwner,
  pages: PageThread,
): Promise<{ ms: number; inFlight: number; store: StoreOwner }> {
  const client = clientOf(sandbox)
  const engine = new SyncEngine({
    store,
    source: clientSyncSource(client, pages.towards(store)),
    events: new EventBus(),
  })
  const t = performance.now()
  const [outcome] = await engine.run(['guarantees'], 'full')
  const ms = performance.now() - t
  if (outcome?.phase !== 'done') throw new Error(`sync failed: ${outcome?.error?.message}`)
  return { ms, inFlight: client.inFlight.limit, store }
}

/**
 * The app's sync with its own defaults (it starts with few requests in
 * flight and a big page, and learns both) against the bare loop at 8 in
 * flight, the sandbox delaying every request 50 ms: bare, sync, bare.
 */
async function benchSyncLatency(): Promise<void> {
  console.log(
    `\n# sync of ${LATENCY_SIZE} guarantees, every request delayed 50 ms (bare loop at ${LATENCY_IN_FLIGHT} in flight)`,
  )
  const sandbox = await startSandboxChild(LATENCY_SIZE, { faults: ['latency:ms=50,rate=1'] })
  const dir = mkdtempSync(join(tmpdir(), 'bench-sync-latency-'))
  const pages = new PageThread(THREADS.pageWorker)
  try {
    const pageSize = (await clientOf(sandbox).listGuarantees({ page: 1, pageSize: 500 })).received
    await bareFetchParse(sandbox, pageSize, Math.min(LATENCY_SIZE, 2000), LATENCY_IN_FLIGHT)
    const bare: number[] = []
    let t = performance.now()
    await bareFetchParse(sandbox, pageSize, LATENCY_SIZE, LATENCY_IN_FLIGHT)
    bare.push(performance.now() - t)
    const sync = await appSync(sandbox, await openOwner(dir), pages)
    await sync.store.close()
    t = performance.now()
    await bareFetchParse(sandbox, pageSize, LATENCY_SIZE, LATENCY_IN_FLIGHT)
    bare.push(performance.now() - t)
    // The fetching side alone: the app's client and page walker with their defaults, no store.
    const client = clientOf(sandbox)
    t = performance.now()
    for await (const page of guaranteePages(client, { sort: 'latest' }, { pageSize: 500 })) {
      if (page.received === 0) break
    }
    const walkMs = performance.now() - t
    const bareMs = (bare[0]! + bare[1]!) / 2
    console.log(
      `pages of ${pageSize}; sync ${sync.ms.toFixed(0)} ms, ended at ${sync.inFlight} in flight; bare runs ${bare.map((ms) => ms.toFixed(0)).join(' / ')} ms; the client's walk alone (no store) ${walkMs.toFixed(0)} ms, ended at ${client.inFlight.limit} in flight`,
    )
    record('sync_vs_bare_ratio_latency50', sync.ms / bareMs, 'ratio', '<= 1.10')
  } finally {
    await pages.close()
    sandbox.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * A sync of every resource against a sandbox that sends every answer one
 * byte a second, each run under a {@link TRICKLE_DEADLINE_MS} deadline
 * (the client's own defaults otherwise): every run must end with `timeout`
 * within its deadline plus 5 s. Records when the last one ended, since the
 * sync started.
 */
async function benchTrickle(): Promise<void> {
  console.log(
    `\n# sync of every resource against a trickling service (deadline ${TRICKLE_DEADLINE_MS / 1000} s a run)`,
  )
  const sandbox = await startSandboxChild(200, { faults: ['trickle'] })
  const dir = mkdtempSync(join(tmpdir(), 'bench-trickle-'))
  const pages = new PageThread(THREADS.pageWorker)
  const store = await openOwner(dir)
  try {
    const events = new EventBus()
    const started = performance.now()
    const runs = new Map<string, { from: number; to?: number }>()
    events.subscribe((event, payload) => {
      if (event !== 'sync.progress') return
      const { resource, phase } = payload as { resource: string; phase: string }
      const run = runs.get(resource) ?? { from: performance.now() }
      runs.set(resource, run)
      if (phase === 'error' || phase === 'done' || phase === 'cancelled') run.to = performance.now()
    })
    const engine = new SyncEngine({
      store,
      source: clientSyncSource(clientOf(sandbox), pages.towards(store)),
      events,
      runDeadlineMs: TRICKLE_DEADLINE_MS,
    })
    const outcomes = await engine.run(SYNC_RESOURCES, 'full')
    const endS = (performance.now() - started) / 1000
    let within = true
    let previousEnd = started
    for (const outcome of outcomes) {
      const run = runs.get(outcome.resource)
      // A run starts when the one before it in the queue ended.
      const tookS = ((run?.to ?? performance.now()) - previousEnd) / 1000
      previousEnd = run?.to ?? previousEnd
      const ok = outcome.error?.code === 'timeout' && tookS <= TRICKLE_DEADLINE_MS / 1000 + 5
      within &&= ok
      console.log(
        `${outcome.resource}: ${outcome.phase} ${outcome.error?.code ?? ''} after ${tookS.toFixed(1)} s${ok ? '' : '  <-- not a timeout within the deadline + 5 s'}`,
      )
    }
    record(
      'trickle_sync_end_s',
      within ? endS : Number.POSITIVE_INFINITY,
      's',
      `each run timeout <= ${TRICKLE_DEADLINE_MS / 1000 + 5} s`,
    )
  } finally {
    await store.close()
    await pages.close()
    sandbox.child.kill('SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Start-up with a full store: a new process (`start-child.ts`) starts the
 * core on a data folder whose profile's store is the one just filled, and
 * answers its first page of inspections; then it idles (the owner builds
 * its cell indexes meanwhile) and reports its RSS.
 */
async function benchStart(dir: string, label: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'))
  try {
    mkdirSync(join(dataDir, 'cache'))
    linkSync(storeFileFor(dir, 'bench'), storeFileFor(dataDir, 'sandbox'))
    const child = spawnSync(process.execPath, [join(CHILDREN, 'start-child.mjs'), dataDir], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const line = child.stdout.split('\n').find((l) => l.startsWith('START='))
    if (!line) throw new Error(`start-child failed: ${child.stdout}`)
    const start = JSON.parse(line.slice('START='.length)) as Record<string, number>
    console.log(
      `start-up over ${label}: first page ${start['firstMs']!.toFixed(0)} ms after the core began (${start['sinceProcessStartMs']!.toFixed(0)} ms after the process did, tsx included; ${start['cpuToFirstMs']!.toFixed(0)} ms of CPU time, every thread, from the process's start); RSS ${start['rssFirstMb']!.toFixed(0)} MB at the first page, ${start['rssIdleMb']!.toFixed(0)} MB idle (heap ${start['heapUsedMb']!.toFixed(0)} MB, external ${start['externalMb']!.toFixed(0)} MB)`,
    )
    record(
      `start_first_rows_ms_${label}`,
      start['firstMs']!,
      'ms',
      label === '1m' ? '<= 500' : null,
    )
    record(`idle_rss_mb_${label}`, start['rssIdleMb']!, 'MB', label === '1m' ? '<= 150' : null)
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

/** Fills a store with `size` sandbox inspections (the sync's own writes, without the network). */
function fillInspections(db: StoreConnection, size: number): InspectionRecord[] {
  const dataset = new Dataset({
    seed: 1,
    size,
    staticUrl: 'http://127.0.0.1:1',
    anchor: SANDBOX_ANCHOR,
  })
  const all: InspectionRecord[] = []
  let batch: InspectionRecord[] = []
  const flush = (): void => {
    transaction(db, () => upsertInspections(db, batch, 1, '2026-01-01T00:00:00Z'))
    batch = []
  }
  for (let i = 0; i < size; i += 1) {
    const parsed = readInspection(dataset.inspection(i), 0)
    if (!parsed.ok) continue
    batch.push(parsed.value)
    all.push(parsed.value)
    if (batch.length === 1000) flush()
  }
  if (batch.length) flush()
  return all
}

/**
 * Guarantees for the store's authentic inspections, as a shop issues them:
 * four lines in five get one (one in ten of those cancelled, one in fifty
 * issued twice), the fifth stays without; a wallet link completed for every
 * hundredth member. Answers how many guarantees were written.
 */
function fillGuarantees(db: StoreConnection): number {
  const authentic = db
    .prepare(
      `SELECT idx, ref_user_id, ref_order_id, ref_order_detail_id, registered_at
       FROM inspections WHERE result = '정품' ORDER BY idx`,
    )
    .all() as {
    idx: number
    ref_user_id: string
    ref_order_id: string
    ref_order_detail_id: string
    registered_at: string
  }[]
  // Above any guarantee a sync wrote into the store.
  let idx = 10_000_000
  let batch: GuaranteeRecord[] = []
  const flush = (): void => {
    transaction(db, () => upsertGuarantees(db, batch, 1, '2026-01-01T00:00:00Z'))
    batch = []
  }
  const issue = (line: (typeof authentic)[number], k: number): void => {
    idx += 1
    batch.push({
      idx,
      status: k % 10 === 1 ? '발급취소' : '발급완료',
      productName: `보증서 ${idx}`,
      nftCardImg: `http://127.0.0.1:1/cards/${idx}.png`,
      refUserId: line.ref_user_id,
      refOrderId: line.ref_order_id,
      refOrderDetailId: line.ref_order_detail_id,
      refProductCode: null,
      refCategoryCode: null,
      refBrandCode: null,
      registeredAt: line.registered_at,
      modifiedAt: null,
    })
    if (batch.length === 1000) flush()
  }
  authentic.forEach((line, k) => {
    if (k % 5 === 0) return
    issue(line, k)
    if (k % 50 === 2) issue(line, k)
  })
  if (batch.length) flush()
  const members = new Set(authentic.map((line) => line.ref_user_id))
  transaction(db, () => {
    let m = 0
    for (const member of members) {
      if (m++ % 100 !== 0) continue
      insertWalletLink(db, {
        flow: 'pre-sync',
        refUserId: member,
        guaranteeIdx: null,
        outcome: 'completed',
        detail: null,
        startedAt: '2026-11-20T01:00:00.000Z',
        endedAt: '2026-11-20T01:01:00.000Z',
      })
    }
  })
  return idx - 10_000_000
}

/**
 * Reconciliation and the dashboard over the filled store: the slowest
 * median of a first page (with the totals) of every kind and of all kinds,
 * a page 41 deep, and every number of the dashboard, by day and by week.
 */
function benchInsight(db: StoreConnection, label: string): void {
  const t = performance.now()
  const issued = fillGuarantees(db)
  console.log(
    `\n# reconciliation over ${label} inspections and ${issued} guarantees (filled in ${((performance.now() - t) / 1000).toFixed(1)} s)`,
  )
  const page = queryReconcile(db, {})
  console.log(`totals: ${JSON.stringify(page.totals)}`)
  const pages = [undefined, ...RECONCILE_KINDS].map((kind) =>
    median(timeIt(() => queryReconcile(db, { limit: 50, ...(kind ? { kind } : {}) }), 21)),
  )
  let cursor: string | undefined
  for (let n = 0; n < 40; n += 1) {
    cursor =
      queryReconcile(db, { limit: 50, ...(cursor ? { cursor } : {}) }).nextCursor ?? undefined
  }
  pages.push(
    median(timeIt(() => queryReconcile(db, { limit: 50, ...(cursor ? { cursor } : {}) }), 21)),
  )
  record(
    `reconcile_ms_${label}`,
    Math.max(...pages),
    'ms',
    label === '1m' ? '<= 50' : label === '100k' ? '< 50' : null,
  )
  const board = (bucket: 'day' | 'week') =>
    median(timeIt(() => dashboard(db, { today: '2026-11-21', bucket }), 21))
  record(
    `dashboard_ms_${label}`,
    Math.max(board('day'), board('week')),
    'ms',
    label === '1m' ? '<= 50' : null,
  )
}

/** The naive way: the whole list as a JSON array, filtered, counted, sorted and sliced in JS. */
function naiveQuery(
  items: readonly InspectionRecord[],
  query: ListRequest,
): { total: number; rows: number } {
  const matches = createMatcher(query.q ?? '')
  const filtered = items.filter(
    (item) =>
      (query.status === undefined || item.inspectionStatus === query.status) &&
      matches(
        item.productName,
        item.inspectionNum,
        item.refUserId ?? '',
        item.refOrderId ?? '',
        item.refOrderDetailId ?? '',
        item.refProductCode ?? '',
      ),
  )
  const counts = new Map<string | null, number>()
  for (const item of items) {
    if (matches(item.productName, item.inspectionNum, item.refUserId ?? '')) {
      counts.set(item.inspectionStatus, (counts.get(item.inspectionStatus) ?? 0) + 1)
    }
  }
  filtered.sort((a, b) => ((b.registeredAt ?? '') < (a.registeredAt ?? '') ? -1 : 1))
  return { total: filtered.length, rows: filtered.slice(0, 50).length }
}

function timeIt(fn: () => void, runs: number): number[] {
  const times: number[] = []
  for (let i = 0; i < runs; i += 1) {
    const t = performance.now()
    fn()
    times.push(performance.now() - t)
  }
  return times
}

/** The data threads as the web host starts them (TypeScript sources via tsx). */
const THREADS = sourceThreads()

/** The bench's store as the app opens it: a database owner thread (TypeScript source via tsx). */
function openOwner(dir: string): Promise<StoreOwner> {
  return StoreOwner.open({
    file: storeFileFor(dir, 'bench'),
    threads: THREADS.storeWorker,
  })
}

/**
 * The same queries through the app's path (the owner thread): the median
 * answer time as the router sees it, and the longest block of this thread's
 * event loop meanwhile (SQL runs on the owner, so it should stay short).
 */
async function benchOwnerQueries(dir: string, label: string, queries: readonly ListRequest[]) {
  const store = await openOwner(dir)
  try {
    await cellIndexesBuilt(store)
    const delays = mainLoopDelays()
    const times: number[] = []
    for (let run = 0; run < 7; run += 1) {
      for (const query of queries) {
        const t = performance.now()
        // A different limit each run, so no answer comes from a cached count alone.
        await store.call('queryInspections', { ...query, limit: 50 - run })
        times.push(performance.now() - t)
      }
    }
    const loop = delays.stop()
    record(`query_via_owner_median_ms_${label}`, median(times), 'ms')
    recordMainLoop(
      sizedKey('mainLoopQuery', label),
      `main_loop_p99_ms_query_${label}`,
      loop,
      '< 20',
    )
  } finally {
    await store.close()
  }
}

/**
 * Waits until the owner has built its cell indexes in its idle time after
 * opening (about 1 s per million records; queries meanwhile count with
 * SQL), so the figures after it are the steady state.
 */
async function cellIndexesBuilt(store: StoreOwner): Promise<void> {
  const t = performance.now()
  while (!(await store.call('cellIndexesReady'))) {
    if (performance.now() - t > 60_000) throw new Error('The owner never built its cell indexes.')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  console.log(
    `owner: cell indexes built ${((performance.now() - t) / 1000).toFixed(1)} s after opening`,
  )
}

/** Guarantees synced while the big inspection list is open (few enough to keep the bench short). */
const LIST_OPEN_SYNC_SIZE = Math.min(SYNC_SIZE, 20_000)

/**
 * The app's worst case for its main thread: the largest store open, a sync
 * of guarantees running into it, and both lists re-queried on every
 * `data.changed` (coalesced as the app's bus does). The longest block of this thread's event loop meanwhile.
 */
async function benchListOpen(dir: string, label: string): Promise<void> {
  console.log(
    `\n# sync of ${LIST_OPEN_SYNC_SIZE} guarantees with ${label} inspections stored and the lists open`,
  )
  const sandbox = await startSandboxChild(LIST_OPEN_SYNC_SIZE)
  const store = await openOwner(dir)
  const pages = new PageThread(THREADS.pageWorker)
  try {
    await cellIndexesBuilt(store)
    const client = clientOf(sandbox)
    const events = new EventBus({ coalesceMs: { 'data.changed': DATA_CHANGED_MS } })
    let requeries = 0
    const answers: Promise<unknown>[] = []
    const requery = (): void => {
      requeries += 1
      answers.push(store.call('queryInspections', { limit: 50 }))
      answers.push(store.call('queryGuarantees', { limit: 50 }))
    }
    const unsubscribe = events.subscribe((event) => {
      if (event === 'data.changed') requery()
    })
    const engine = new SyncEngine({
      store,
      source: clientSyncSource(client, pages.towards(store)),
      events,
    })
    const cpu = mainThreadStretches()
    const delays = mainLoopDelays()
    const t = performance.now()
    const [outcome] = await engine.run(['guarantees'], 'full')
    const ms = performance.now() - t
    const loop = delays.stop()
    const cpuMaxMs = cpu.stop()
    console.log(`main thread's longest waits meanwhile: ${cpu.gaps()}`)
    // The bus may still send a coalesced change after the run: nobody queries a closed store.
    unsubscribe()
    await Promise.all(answers)
    if (outcome?.phase !== 'done') throw new Error(`sync failed: ${outcome?.error?.message}`)
    console.log(`synced in ${ms.toFixed(0)} ms; the lists were queried again ${requeries} times`)
    recordMainLoop(
      sizedKey('mainLoopListOpen', label),
      `main_loop_p99_ms_sync_${label}_list_open`,
      loop,
      '<= 20',
    )
    record(`main_cpu_stretch_max_ms_sync_${label}_list_open`, cpuMaxMs, 'ms')
  } finally {
    await store.close()
    await pages.close()
    sandbox.child.kill('SIGTERM')
  }
}

async function benchQueries(size: number): Promise<void> {
  const label = size >= 1_000_000 ? `${size / 1_000_000}m` : `${size / 1000}k`
  console.log(`\n# queries over ${size} inspections`)
  const dir = mkdtempSync(join(tmpdir(), 'bench-query-'))
  try {
    const store = openStore(storeFileFor(dir, 'bench'))
    const db = store.db
    let t = performance.now()
    const items = fillInspections(db, size)
    console.log(`filled in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    // As after a first full sync: the search index merged, the file rebuilt.
    t = performance.now()
    compactStore(db)
    console.log(`compacted in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    // As the owner does in its idle time after opening the profile.
    t = performance.now()
    buildCellIndexes(db)
    console.log(`cell index built in ${((performance.now() - t) / 1000).toFixed(1)} s`)
    // The JSON-file cache: the whole list as JSON text, parsed into one array
    // (in chunks of 100k, since 1M records exceed V8's largest string).
    let loadMs = 0
    const loaded: InspectionRecord[] = []
    for (let i = 0; i < items.length; i += 100_000) {
      const json = JSON.stringify(items.slice(i, i + 100_000))
      t = performance.now()
      for (const item of JSON.parse(json) as InspectionRecord[]) loaded.push(item)
      loadMs += performance.now() - t
    }

    const queries: { name: string; query: ListRequest }[] = [
      { name: 'status+text', query: { status: '배송완료', q: '루이비통', limit: 50 } },
      { name: 'status+2syll', query: { status: '배송완료', q: '샤넬', limit: 50 } },
      { name: 'choseong', query: { q: 'ㄹㅇㅂㅌ', limit: 50 } },
      { name: 'member', query: { q: loaded[size >> 1]!.refUserId ?? '', limit: 50 } },
    ]
    for (const { name, query } of queries) {
      // Counts are cached per data version: bump it so every run recomputes them.
      const sql = timeIt(() => {
        bumpDataVersion(db)
        queryInspections(db, query)
      }, 21)
      // The naive reference takes seconds a run at 1M (one run keeps the bench under 10 minutes).
      let naiveTotal = 0
      const naive = timeIt(
        () => (naiveTotal = naiveQuery(loaded, query).total),
        size >= 1_000_000 ? 1 : 7,
      )
      const check = queryInspections(db, query).total
      console.log(
        `${name}: sqlite median ${median(sql).toFixed(2)} ms, naive ${median(naive).toFixed(1)} ms, totals ${check} / ${naiveTotal}`,
      )
      if (name === 'status+text') {
        record(`query_median_ms_${label}`, median(sql), 'ms', size === 100_000 ? '< 10' : null)
        record(`query_speedup_${label}`, median(naive) / median(sql), 'x', '>= 20')
        record(`naive_query_median_ms_${label}`, median(naive), 'ms')
      } else {
        record(`query_${name.replace(/\W/g, '_')}_median_ms_${label}`, median(sql), 'ms')
      }
    }
    // The naive references are done: the app's main thread holds no records, nor does this one now
    // (a million of them kept the heap large for the owner and list-open parts below).
    items.length = 0
    loaded.length = 0
    // A deep page costs what the first does: walk 40 pages, time the last.
    let cursor: string | undefined
    for (let page = 0; page < 40; page += 1) {
      cursor =
        queryInspections(db, { limit: 50, ...(cursor ? { cursor } : {}) }).nextCursor ?? undefined
    }
    const deep = timeIt(
      () => queryInspections(db, { limit: 50, ...(cursor ? { cursor } : {}) }),
      21,
    )
    const first = timeIt(() => queryInspections(db, { limit: 50 }), 21)
    record(`query_first_page_ms_${label}`, median(first), 'ms')
    if (size === 100_000) {
      // The whole list as CSV, every field and the review marks (what `lists.export` writes).
      const job = {
        resource: 'inspections' as const,
        query: { sort: 'latest' as const },
        lang: 'ko' as const,
        asOf: '2026-11-23 10:00:00',
        now: '2026-11-23T01:00:00.000Z',
        timeZone: 'Asia/Seoul',
      }
      let exported = 0
      const runs = timeIt(() => {
        bumpDataVersion(db)
        exported = listCsv(db, job).rows
      }, 3)
      console.log(`export: ${exported} rows`)
      record('export_csv_100k_ms', median(runs), 'ms', '< 3000')
    }
    benchShapes(db, label)
    record(`query_page_41_ms_${label}`, median(deep), 'ms')
    record(`naive_json_load_ms_${label}`, loadMs, 'ms')
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    record(
      `store_mb_${label}_inspections`,
      statSync(storeFileFor(dir, 'bench')).size / 2 ** 20,
      'MB',
    )
    benchChanges(db, size, label)
    db.close()
    await benchStart(dir, label)
    // What the arrays above held is garbage now; a major collection of it would land in the
    // owner and list-open parts' main-loop figures (a 60 ms pause seen), which the app's main
    // thread, never holding records, does not pay. Collect it before they start.
    collectGarbage()
    await benchOwnerQueries(
      dir,
      label,
      queries.map(({ query }) => query),
    )
    if (size === Math.max(...QUERY_SIZES)) await benchListOpen(dir, label)
    // Last: the guarantees it writes would change what the parts above measure.
    const reopened = openStore(storeFileFor(dir, 'bench')).db
    try {
      benchInsight(reopened, label)
    } finally {
      reopened.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * Every list shape, first page of 50 with its counts, uncached: the
 * slowest median of text of two or more characters and of the other
 * filters, the slowest one-character search, and the stored counts.
 */
function benchShapes(db: StoreConnection, label: string): void {
  markSome(db, 500)
  // The marks were written behind the writers' backs: the owner's next idle steps rebuild it.
  buildCellIndexes(db)
  console.log(`\n# query shapes over ${label} inspections (median ms, total, driver, plan)`)
  const shapes = timeShapes(db, 11)
  printShapes(shapes)
  const slowest = (list: typeof shapes): number => Math.max(...list.map((s) => s.medianMs))
  const at1m = label === '1m'
  record(
    sizedKey('queryMax', label),
    slowest(shapes.filter((s) => !s.oneCharacter)),
    'ms',
    at1m ? '<= 10' : null,
  )
  record(
    sizedKey('queryOneChar', label),
    slowest(shapes.filter((s) => s.oneCharacter)),
    'ms',
    at1m ? '<= 50' : null,
  )
  record(sizedKey('counts', label), timeCounts(db, 51), 'ms', at1m ? '<= 1' : null)
}

/**
 * The changes feed and aging over the filled store with a seeded set of
 * changes written into it (`changes-feed.ts`): the slowest median of the
 * feed's page shapes, of the aging counts, and (no target) the list
 * filtered by days in status, first page with its counts.
 */
function benchChanges(db: StoreConnection, size: number, label: string): void {
  const t = performance.now()
  const { entries, lastAt } = seedChanges(db, size)
  console.log(
    `\n# changes feed over ${label}: ${entries} entries written in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  )
  const at1m = label === '1m'
  let slowest = 0
  for (const { name, query } of changeShapes(db)) {
    const runs = timeIt(() => listChanges(db, query), 21)
    console.log(`${name}: median ${median(runs).toFixed(2)} ms`)
    slowest = Math.max(slowest, median(runs))
  }
  const target = at1m ? '<= 20' : size === 100_000 ? '< 50' : null
  record(sizedKey('changesList', label), slowest, 'ms', target)
  // A "now" a week after the last seeded sync: part of the moved records have aged, part not.
  const now = new Date(Date.parse(lastAt) + 3 * 86_400_000).toISOString()
  let aging = 0
  for (const shape of agingShapes(db, now)) aging = Math.max(aging, median(timeIt(shape, 21)))
  record(sizedKey('agingQuery', label), aging, 'ms', at1m ? '<= 20' : null)
  const list = timeIt(() => {
    bumpDataVersion(db)
    queryInspections(db, { status: '감정승인(배송중)', agedDays: 7, agedAsOf: now, limit: 50 })
  }, 5)
  record(sizedKey('agingList', label), median(list), 'ms')
}

console.log(`${'metric'.padEnd(32)} ${'value'.padStart(12)} ${'unit'.padEnd(8)} target`)
// The machine's own noise: the longest event-loop block of this thread doing nothing for 3 s.
{
  const delays = mainLoopDelays()
  await new Promise((resolve) => setTimeout(resolve, 3000))
  const idle = delays.stop()
  record('main_loop_max_ms_idle', idle.max, 'ms')
  record('main_loop_max_ms_idle_5ms_ticks', idle.max5, 'ms')
}
// The app's process in the sync and start-up parts: children bundled as the app is.
const CHILDREN = await bundleBenchChildren()
if (PARTS.includes('sync')) await benchSync(CHILDREN)
if (PARTS.includes('sync') || PARTS.includes('latency')) await benchSyncLatency()
if (PARTS.includes('trickle')) await benchTrickle()
if (PARTS.includes('queries')) for (const size of QUERY_SIZES) await benchQueries(size)
if (PARTS.includes('team')) await benchTeam(record)
if (PARTS.includes('live')) await benchLive(record)
writeFileSync(join(root, 'bench/results.json'), `${JSON.stringify(results, null, 2)}\n`)
console.log('\nwrote bench/results.json')

// The Chromium part (bench/ui.ts) runs in its own process and merges its keys into the file.
if (process.env['BENCH_SKIP_UI'] !== '1') {
  const ui = spawnSync(process.execPath, ['--import', 'tsx', join(root, 'bench/ui.ts')], {
    stdio: 'inherit',
    cwd: root,
  })
  if (ui.status !== 0) process.exitCode = ui.status ?? 1
}
