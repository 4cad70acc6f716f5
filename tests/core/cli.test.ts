import { afterEach, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { demoCredentials } from '../../src/sandbox'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM')
})

/** Runs one of the project's TypeScript CLIs as `npm run` does (through tsx) and returns its first stdout line. */
function firstLine(script: string, args: string[]): Promise<{ line: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once('line', (line) => resolve({ line, child }))
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before printing`)))
  })
}

describe('npm run sandbox', () => {
  it('prints one SANDBOX={json} line whose credentials derive from the seed and work', async () => {
    const { line } = await firstLine('src/sandbox/cli.ts', [
      '--port',
      '0',
      '--seed',
      '3',
      '--size',
      '10',
    ])
    expect(line).toMatch(/^SANDBOX=\{.*\}$/)
    const info = JSON.parse(line.slice('SANDBOX='.length)) as Record<string, string>
    expect(Object.keys(info).sort()).toEqual([
      'apiKey',
      'apiSecret',
      'baseUrl',
      'partnerId',
      'staticUrl',
    ])
    expect(info).toMatchObject(demoCredentials(3))
    expect(info['baseUrl']).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const response = await fetch(
      `${info['baseUrl']}/v1/partner/${info['partnerId']}/guarantee/brand`,
      {
        headers: { 'X-Service-API-Key': info['apiKey']!, Authorization: info['apiSecret']! },
      },
    )
    expect(response.status).toBe(200)
    expect(demoCredentials(4).apiKey).not.toBe(demoCredentials(3).apiKey)
  })

  it('rejects a bad flag value with a clear message', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/sandbox/cli.ts', '--size', 'lots'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    children.push(child)
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('--size must be a whole number')
  })
})

describe('npm run web', () => {
  it('prints WEB_HOST_URL with a token, keeps data under --data-dir, and answers IPC', async () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'ad-cli-')), 'data')
    const { line } = await firstLine('src/web-host/cli.ts', [
      '--data-dir',
      dataDir,
      '--sandbox-size',
      '50',
    ])
    const match = /^WEB_HOST_URL=(http:\/\/127\.0\.0\.1:(\d+)\/)#token=([A-Za-z0-9_-]{20,})$/.exec(
      line,
    )
    expect(match).not.toBeNull()
    const [, base, , token] = match!
    expect(existsSync(dataDir)).toBe(true)
    const answer = await fetch(`${base}ipc/app.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-app-token': token! },
      body: '{}',
    })
    expect(await answer.json()).toMatchObject({
      ok: true,
      value: { host: 'web', profile: { kind: 'sandbox' } },
    })
  })

  it('prints a second address with a one-time code, not the token, that the page exchanges once', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src/web-host/cli.ts', '--sandbox-size', '20'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    children.push(child)
    const [line, open] = await new Promise<string[]>((resolve, reject) => {
      const seen: string[] = []
      createInterface({ input: child.stdout! }).on('line', (text) => {
        seen.push(text)
        if (seen.length === 2) resolve(seen)
      })
      child.once('exit', (code) => reject(new Error(`the web host exited with ${code}`)))
    })
    const token = /^WEB_HOST_URL=\S+#token=(\S+)$/.exec(line ?? '')?.[1]
    expect(token).toBeDefined()
    const match = /^WEB_HOST_OPEN=(http:\/\/127\.0\.0\.1:\d+\/)#code=(\S+)$/.exec(open ?? '')
    expect(match).not.toBeNull()
    expect(open).not.toContain(token)
    const exchange = () =>
      fetch(`${match![1]}session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code: match![2] }),
      })
    const first = await exchange()
    expect(await first.json()).toEqual({ token })
    expect((await exchange()).status).toBe(401)
  })

  /** Runs the web host with the desktop app's data folder under `config`; answers its exit code and stderr. */
  async function refusedStart(config: string, args: string[]) {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/web-host/cli.ts', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, XDG_CONFIG_HOME: config },
    })
    children.push(child)
    let stderr = ''
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    return { code, stderr }
  }

  it('refuses the desktop app’s data folder, and --other-profiles without a folder of its own', async () => {
    const config = mkdtempSync(join(tmpdir(), 'ad-config-'))
    const desktop = join(config, 'Appraisal Desk')
    const own = await refusedStart(config, ['--data-dir', desktop])
    expect(own.code).toBe(2)
    expect(own.stderr).toContain("is the desktop app's own data folder")
    const other = await refusedStart(config, ['--other-profiles'])
    expect(other.code).toBe(2)
    expect(other.stderr).toContain('--other-profiles needs a --data-dir')
  })

  it('does not start while the desktop app holds its single-instance lock', async () => {
    const config = mkdtempSync(join(tmpdir(), 'ad-config-'))
    const desktop = join(config, 'Appraisal Desk')
    mkdirSync(desktop)
    // What Chromium's process singleton leaves in the folder: a link naming this host and a live pid.
    symlinkSync(`${hostname()}-${process.pid}`, join(desktop, 'SingletonLock'))
    const { code, stderr } = await refusedStart(config, [])
    expect(code).toBe(2)
    expect(stderr).toContain('The desktop app is running')
  })
})
