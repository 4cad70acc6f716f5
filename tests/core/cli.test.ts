import { afterEach, describe, expect, it } from 'vitest'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
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
})
