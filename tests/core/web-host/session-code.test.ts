import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { EventBus } from '../../../src/core/events'
import type { Router } from '../../../src/core/router'
import { CODE_LIFETIME_MS, startWebHost, type WebHost } from '../../../src/web-host/server'

/**
 * The one-time code `npm start` opens the browser with: the page exchanges
 * it for the session token at `POST /session`, once, within its lifetime.
 */
const hosts: WebHost[] = []
afterEach(async () => {
  for (const host of hosts.splice(0)) await host.close()
})

async function start() {
  let now = 1_000_000
  const router: Router = {
    channels: ['app.info'],
    dispatch: () => Promise.resolve({ ok: true, value: 'answered' }),
  }
  const host = await startWebHost({
    router,
    events: new EventBus(),
    rendererDir: mkdtempSync(join(tmpdir(), 'ad-code-')),
    now: () => now,
  })
  hosts.push(host)
  const base = `http://127.0.0.1:${host.port}`
  const exchange = (code: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ code }),
    })
  const codeOf = (url: string) => {
    const match = /^http:\/\/127\.0\.0\.1:\d+\/#code=([A-Za-z0-9_-]{40,})$/.exec(url)
    expect(match).not.toBeNull()
    return match![1]!
  }
  return { host, base, exchange, codeOf, later: (ms: number) => void (now += ms) }
}

describe('the web host’s one-time code', () => {
  it('is exchanged once for the token, which then answers IPC', async () => {
    const { host, base, exchange, codeOf } = await start()
    const url = host.openUrl()
    expect(url).not.toContain(host.token)
    const code = codeOf(url)
    const first = await exchange(code)
    expect(first.status).toBe(200)
    const { token } = (await first.json()) as { token: string }
    expect(token).toBe(host.token)
    const ipc = await fetch(`${base}/ipc/app.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-token': token },
      body: '{}',
    })
    expect(await ipc.json()).toEqual({ ok: true, value: 'answered' })
    // Read later (another user's process list, the browser's history): worth nothing.
    expect((await exchange(code)).status).toBe(401)
  })

  it('refuses an expired, unknown or malformed code, and another site', async () => {
    const { host, exchange, codeOf, later } = await start()
    const stale = codeOf(host.openUrl())
    later(CODE_LIFETIME_MS)
    expect((await exchange(stale)).status).toBe(401)
    const fresh = codeOf(host.openUrl())
    expect((await exchange(`${fresh}x`)).status).toBe(401)
    expect((await exchange(null)).status).toBe(401)
    expect((await exchange({ code: fresh })).status).toBe(401)
    expect((await exchange(fresh, { origin: 'https://evil.example' })).status).toBe(403)
    // None of the refusals used it up.
    expect((await exchange(fresh)).status).toBe(200)
  })
})
