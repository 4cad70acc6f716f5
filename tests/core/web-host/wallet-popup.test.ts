import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { get } from 'node:http'
import { join } from 'node:path'
import { startWebHost, type WebHost } from '../../../src/web-host/server'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { openConfFile } from '../../../src/core/settings/conf-file'
import type { WalletOutcome } from '../../../src/shared/wallet'

/** The web host's popup routes against the real core and sandbox, over HTTP. */

let core: BootedCore
let host: WebHost
const outcomes: WalletOutcome[] = []

beforeAll(async () => {
  const root = mkdtempSync(join(tmpdir(), 'ad-wallet-popup-'))
  mkdirSync(join(root, 'renderer'))
  writeFileSync(join(root, 'renderer', 'index.html'), '<!doctype html><title>app</title>')
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: join(root, 'data'),
    host: 'web',
    version: '0.0.0',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    log: () => undefined,
    sandbox: { size: 50 },
  })
  host = await startWebHost({
    router: core.router,
    events: core.events,
    rendererDir: join(root, 'renderer'),
    wallet: core.wallet,
  })
  core.events.subscribe((event, payload) => {
    if (event === 'wallet.outcome') outcomes.push(payload as WalletOutcome)
  })
})

afterAll(async () => {
  await host.close()
  await core.close()
})

async function start(member: string): Promise<string> {
  const result = await core.router.dispatch('wallet.start', { flow: 'pre-sync', refUserId: member })
  if (!result.ok) throw new Error(result.error.message)
  const started = result.value as { flowId: string; opener: string }
  expect(started.opener).toBe('popup')
  return started.flowId
}

const open = (flowId: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${host.port}/wallet/open/${flowId}`, { redirect: 'manual', headers })

/** The headers Chromium sends on the popup's redirect back from the sandbox (another port: same-site). */
const NAVIGATION = { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'navigate' }

/**
 * A GET with the given Fetch Metadata headers, through `node:http` (Node's
 * `fetch` sets `Sec-Fetch-Mode: cors` itself).
 */
function navigate(
  url: string,
  headers: Record<string, string> = NAVIGATION,
): Promise<{ status: number; text: () => Promise<string> }> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8')
        resolve({ status: res.statusCode ?? 0, text: () => Promise.resolve(body) })
      })
    }).on('error', reject)
  })
}

describe('web host wallet popup', () => {
  it('redirects the popup once to the service, then completes on the return page', async () => {
    const flowId = await start('member-popup')
    const refused = await open(flowId, { 'sec-fetch-site': 'cross-site' })
    expect(refused.status).toBe(404)
    const first = await open(flowId, { 'sec-fetch-site': 'same-origin' })
    expect(first.status).toBe(302)
    const service = first.headers.get('location') ?? ''
    expect(service.startsWith(core.sandbox.baseUrl)).toBe(true)
    // Handed out once: a second open (another tab, a replay) gets nothing.
    expect((await open(flowId)).status).toBe(404)

    const page = await (await fetch(service)).text()
    const complete = /href="([^"]+)"[^>]*>완료/.exec(page)?.[1]?.replace(/&#38;/g, '&') ?? ''
    const done = await fetch(new URL(complete, service), { redirect: 'manual' })
    const back = done.headers.get('location') ?? ''
    expect(back.startsWith(`http://127.0.0.1:${host.port}/wallet/return?`)).toBe(true)
    const returned = await navigate(back)
    expect(returned.status).toBe(200)
    const text = await returned.text()
    expect(text).toContain('The wallet link is complete')
    expect(text).not.toContain(core.sandbox.apiKey)
    expect(outcomes.at(-1)).toMatchObject({ flowId, outcome: 'completed' })
    // A return with no flow running completes nothing.
    expect((await navigate(back)).status).toBe(409)
  })

  it('ends blocked or failed in the web host itself, without sending the popup on', async () => {
    const foreign = await start('foreign-popup')
    const blocked = await open(foreign)
    expect(blocked.status).toBe(200)
    expect(blocked.headers.get('location')).toBeNull()
    expect(outcomes.at(-1)).toMatchObject({
      outcome: 'blocked',
      reason: 'https://wallet-partner.invalid',
    })
    const broken = await start('error-popup')
    await open(broken)
    expect(outcomes.at(-1)).toMatchObject({ outcome: 'failed', reason: 'http-503' })
  })

  it('takes the return only from a top-level navigation that stayed on this machine', async () => {
    const flowId = await start('member-return')
    const back = `http://127.0.0.1:${host.port}/wallet/return?result=success`
    for (const headers of [
      { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' },
      { 'sec-fetch-site': 'same-site', 'sec-fetch-mode': 'no-cors' },
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' },
    ]) {
      const refused = await navigate(back, headers)
      expect(refused.status).toBe(403)
    }
    expect(outcomes.some((outcome) => outcome.flowId === flowId)).toBe(false)
    const returned = await navigate(back)
    expect(returned.status).toBe(200)
    expect(outcomes.at(-1)).toMatchObject({ flowId, outcome: 'completed' })
  })

  it('tells the wallet service how many of the app’s pages are connected', async () => {
    const counts: number[] = []
    const original = core.wallet.pagesChanged.bind(core.wallet)
    core.wallet.pagesChanged = (count) => {
      counts.push(count)
      original(count)
    }
    try {
      const stream = new AbortController()
      const response = await fetch(`http://127.0.0.1:${host.port}/events`, {
        headers: { 'x-app-token': host.token },
        signal: stream.signal,
      })
      const reader = response.body!.getReader()
      await reader.read()
      await expect.poll(() => counts).toEqual([1])
      stream.abort()
      await expect.poll(() => counts).toEqual([1, 0])
    } finally {
      core.wallet.pagesChanged = original
    }
  })

  it('answers 404 for an unknown flow', async () => {
    expect((await open('00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await open('not-a-flow')).status).toBe(404)
  })
})
