import { request } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { LazySandbox, type SandboxPorts } from '../../../src/main/lazy-sandbox'
import { startEmbeddedSandbox } from '../../../src/sandbox'

/** The packaged app's sandbox, started on first use: the real sandbox on real loopback ports. */
const made: LazySandbox[] = []
afterEach(async () => {
  for (const sandbox of made.splice(0)) await sandbox.stop()
})

async function lazy(start?: (ports: SandboxPorts) => Promise<{ close(): Promise<void> }>) {
  const sandbox = await LazySandbox.create(start ? { start } : {})
  made.push(sandbox)
  return sandbox
}

/** A GET with a chosen Host header (fetch would not let the test set it). */
function getWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      res.resume()
      resolve(res.statusCode ?? 0)
    })
    req.on('error', reject)
    req.end()
  })
}

describe('the embedded sandbox in the Electron shell', () => {
  it('describes the built-in profile at launch without listening', async () => {
    const sandbox = await lazy()
    expect(sandbox.started).toBe(false)
    await expect(fetch(sandbox.profile.baseUrl)).rejects.toThrow()
    // The same profile the hosts get from a started sandbox, but for the ports.
    const started = await startEmbeddedSandbox({ size: 10 })
    try {
      const port = (url: string) => new URL(url).port
      const same = (url: string, other: string) => url.replace(port(url), port(other))
      expect(sandbox.profile).toEqual({
        ...started.profile,
        baseUrl: same(started.profile.baseUrl, sandbox.profile.baseUrl),
        staticUrl: same(started.profile.staticUrl, sandbox.profile.staticUrl),
        redirectUri: same(started.profile.redirectUri, sandbox.profile.redirectUri),
      })
    } finally {
      await started.sandbox.close()
    }
  })

  it('starts once on first use, answers on the described ports, and stops', async () => {
    let starts = 0
    const sandbox = await lazy()
    const real = await lazy(async (ports) => {
      starts += 1
      const { startSandbox } = await import('../../../src/sandbox')
      return startSandbox({ seed: 1, size: 10, ...ports })
    })
    expect(sandbox.covers(`${sandbox.profile.baseUrl}/v1/x`)).toBe(true)
    expect(sandbox.covers(`${sandbox.profile.staticUrl}/cards/1.png`)).toBe(true)
    expect(sandbox.covers('https://partner.example/v1')).toBe(false)
    await Promise.all([real.ensure(), real.ensure()])
    expect(starts).toBe(1)
    const page = await fetch(real.profile.baseUrl)
    expect(page.status).toBe(200)
    await real.stop()
    expect(real.started).toBe(false)
    await expect(fetch(real.profile.baseUrl)).rejects.toThrow()
  })

  it('answers only requests naming its loopback address (DNS rebinding)', async () => {
    const sandbox = await lazy()
    await sandbox.ensure()
    const { port } = new URL(sandbox.profile.baseUrl)
    const { port: staticPort } = new URL(sandbox.profile.staticUrl)
    expect(await getWithHost(sandbox.profile.baseUrl, `127.0.0.1:${port}`)).toBe(200)
    expect(await getWithHost(sandbox.profile.baseUrl, `localhost:${port}`)).toBe(200)
    expect(await getWithHost(sandbox.profile.baseUrl, `evil.test:${port}`)).toBe(421)
    expect(await getWithHost(sandbox.profile.baseUrl, '127.0.0.1')).toBe(421)
    expect(
      await getWithHost(`${sandbox.profile.staticUrl}/cards/1.png`, `evil.test:${staticPort}`),
    ).toBe(421)
  })

  it('starts on the first request that goes to it, never for another host', async () => {
    const sandbox = await lazy()
    const seen: string[] = []
    const fetch = sandbox.wrapFetch((input) => {
      seen.push(`${input} started=${String(sandbox.started)}`)
      return Promise.resolve(new Response(null))
    })
    await fetch('https://partner.example/v1/brand')
    expect(sandbox.started).toBe(false)
    await fetch(`${sandbox.profile.staticUrl}/cards/1.png`)
    expect(seen).toEqual([
      'https://partner.example/v1/brand started=false',
      `${sandbox.profile.staticUrl}/cards/1.png started=true`,
    ])
  })

  it('retries a start that failed', async () => {
    let attempts = 0
    const sandbox = await lazy(() => {
      attempts += 1
      return attempts === 1
        ? Promise.reject(new Error('EADDRINUSE'))
        : Promise.resolve({ close: () => Promise.resolve() })
    })
    await expect(sandbox.ensure()).rejects.toThrow('EADDRINUSE')
    await sandbox.ensure()
    expect(attempts).toBe(2)
  })
})
