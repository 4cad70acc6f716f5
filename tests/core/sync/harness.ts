import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { StoreConnection } from '../../../src/core/store/connection'
import { PartnerClient } from '../../../src/core/api/client'
import { EventBus } from '../../../src/core/events'
import { storeFileFor } from '../../../src/core/store/paths'
import { StoreOwner } from '../../../src/core/owner/store-owner'
import { clientSyncSource } from '../../../src/core/sync/paged-pass'
import { PageThread } from '../../../src/core/sync/page-thread/client'
import { SyncEngine, type SyncEngineOptions } from '../../../src/core/sync/sync-engine'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/sandbox'
import type { SyncProgress } from '../../../src/shared/lists'
import { SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from '../../support/store-worker'
import { tempDir } from '../store/fixtures'
import { SANDBOX_ANCHOR } from '../../support/anchor'

/** A list answer passing through the fault proxy; return a changed copy, or a status to fail with. */
export type Fault = (
  url: URL,
  body: { total: number; page: number; data: Record<string, unknown>[] },
) => { total: number; page: number; data: unknown[] } | number | Promise<never> | undefined

/**
 * A small proxy in front of the real sandbox: every
 * request goes over real HTTP to the sandbox; `fault` may rewrite a list
 * answer, fail it with a status, or hold it. `urls` records what was asked.
 */
export async function startFaultProxy(
  sandbox: Sandbox,
): Promise<{ baseUrl: string; urls: URL[]; fault: Fault | null; close(): Promise<void> }> {
  const state = { fault: null as Fault | null, urls: [] as URL[] }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', sandbox.baseUrl)
    const headers: Record<string, string> = {}
    for (const name of ['x-service-api-key', 'authorization']) {
      const value = req.headers[name]
      if (typeof value === 'string') headers[name] = value
    }
    if (/\/(guarantee|inspection)$/.test(url.pathname)) state.urls.push(url)
    void (async () => {
      try {
        const upstream = await fetch(url, { headers })
        const text = await upstream.text()
        let out = text
        let status = upstream.status
        if (state.fault && upstream.ok && /\/(guarantee|inspection)$/.test(url.pathname)) {
          const changed = await state.fault(url, JSON.parse(text))
          if (typeof changed === 'number') {
            status = changed
            out = JSON.stringify({ code: 'FAULT', message: 'Injected fault.' })
          } else if (changed) out = JSON.stringify(changed)
        }
        res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' })
        res.end(out)
      } catch {
        res.destroy()
      }
    })()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    get urls() {
      return state.urls
    },
    get fault() {
      return state.fault
    },
    set fault(value) {
      state.fault = value
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/**
 * A sandbox, a fault proxy, a temp store owned by its worker thread and an
 * engine wired like the app's (pages parsed in the page thread). `db` is a separate read-only connection for
 * the tests' own checks (the app itself never opens one).
 */
export async function startHarness(
  options: {
    size?: number
    engine?: Partial<SyncEngineOptions>
    sandbox?: Partial<SandboxOptions>
  } = {},
) {
  const sandbox = await startSandbox({
    seed: 7,
    size: options.size ?? 450,
    anchor: SANDBOX_ANCHOR,
    ...options.sandbox,
  })
  const proxy = await startFaultProxy(sandbox)
  const temp = tempDir()
  const file = storeFileFor(temp.dir, 'sandbox')
  const store = await StoreOwner.open({ file, threads: SOURCE_STORE_WORKER })
  const db = new StoreConnection(file, { readOnly: true })
  const events = new EventBus()
  const progress: SyncProgress[] = []
  const changed: string[] = []
  events.subscribe((event, payload) => {
    if (event === 'sync.progress') progress.push(payload as SyncProgress)
    if (event === 'data.changed') changed.push((payload as { resource: string }).resource)
  })
  const client = new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl: proxy.baseUrl, partnerId: sandbox.partnerId },
    credentials: async () => ({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
    timeoutMs: 5000,
  })
  // Pages are parsed in the page thread, as in the app.
  const pages = new PageThread(SOURCE_PAGE_WORKER)
  const engine = new SyncEngine({
    store,
    source: clientSyncSource(client, pages.towards(store)),
    events,
    pageSize: 500,
    ...options.engine,
  })
  return {
    sandbox,
    proxy,
    temp,
    store,
    db,
    events,
    progress,
    changed,
    engine,
    count(table: 'guarantees' | 'inspections', where = '1 = 1'): number {
      return (
        db.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${where}`).get() as {
          n: number
        }
      ).n
    },
    async close() {
      engine.stop()
      await engine.idle()
      await store.close()
      await pages.close()
      db.close()
      await proxy.close()
      await sandbox.close()
      temp.remove()
    },
  }
}

/**
 * The app restarted on the harness's data folder: a new owner of its store
 * and an engine over the proxy, as after a crash (the harness's own owner
 * closed first).
 */
export async function restartedEngine(
  h: Awaited<ReturnType<typeof startHarness>>,
): Promise<{ store: StoreOwner; engine: SyncEngine }> {
  const store = await StoreOwner.open({
    file: storeFileFor(h.temp.dir, 'sandbox'),
    threads: SOURCE_STORE_WORKER,
  })
  const engine = new SyncEngine({
    store,
    source: clientSyncSource(
      new PartnerClient({
        fetch: globalThis.fetch,
        target: { baseUrl: h.proxy.baseUrl, partnerId: h.sandbox.partnerId },
        credentials: async () => ({ apiKey: h.sandbox.apiKey, apiSecret: h.sandbox.apiSecret }),
      }),
    ),
    events: new EventBus(),
  })
  return { store, engine }
}

/**
 * A full sync in a child process (`sync-child.ts`) on the harness's data
 * folder that SIGKILLs itself after committing page `killAtPage`; answers
 * the signal it ended with. With `postedFile` the child's owner stands in for
 * a slow disk and notes each write it is sent (`sync-child.ts`); `started`
 * receives the child, so a test can end it if it never reaches its kill.
 */
export async function killedSync(
  h: Awaited<ReturnType<typeof startHarness>>,
  killAtPage: number,
  options: { postedFile?: string; started?: (child: ChildProcess) => void } = {},
): Promise<NodeJS.Signals | null> {
  const child = fork(fileURLToPath(new URL('./sync-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SYNC_CHILD: JSON.stringify({
        baseUrl: h.proxy.baseUrl,
        partnerId: h.sandbox.partnerId,
        apiKey: h.sandbox.apiKey,
        apiSecret: h.sandbox.apiSecret,
        dataDir: h.temp.dir,
        killAtPage,
        ...(options.postedFile ? { postedFile: options.postedFile } : {}),
      }),
    },
    stdio: 'ignore',
  })
  options.started?.(child)
  return new Promise((resolve) => child.on('exit', (_code, sig) => resolve(sig)))
}
