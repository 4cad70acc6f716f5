import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxChange } from '../../../src/sandbox/churn'
import { formatSecond, wallSecond } from '../../../src/sandbox/dataset'

const children: ChildProcess[] = []
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM')
})

function start(args: string[]): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/sandbox/cli.ts', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  children.push(child)
  return child
}

function baseUrlOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve((JSON.parse(line.slice('SANDBOX='.length)) as { baseUrl: string }).baseUrl)
    })
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code}`)))
  })
}

describe('npm run sandbox, with time', () => {
  it('--churn steps at the real time in the service zone; --test-endpoints drives it', async () => {
    // A step a day apart: only the test endpoint moves it during the test.
    const child = start(['--size', '40', '--churn-every-ms', '86400000', '--test-endpoints'])
    const baseUrl = await baseUrlOf(child)
    const before = formatSecond(wallSecond(Date.now()))
    const response = await fetch(`${baseUrl}/__sandbox/advance?steps=3`, { method: 'POST' })
    const after = formatSecond(wallSecond(Date.now()) + 3)
    expect(response.status).toBe(200)
    const body = (await response.json()) as { step: number; changes: SandboxChange[] }
    expect(body.step).toBe(3)
    expect(body.changes.length).toBeGreaterThan(0)
    for (const change of body.changes) {
      expect(change.at >= before && change.at <= after, change.at).toBe(true)
    }
  })

  it('has no test endpoints without the flag, and refuses a bad interval', async () => {
    const plain = start(['--size', '10'])
    const baseUrl = await baseUrlOf(plain)
    expect((await fetch(`${baseUrl}/__sandbox/changes`)).status).toBe(404)

    const bad = start(['--churn-every-ms', 'soon'])
    let stderr = ''
    bad.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => bad.once('exit', resolve))
    expect(code).toBe(2)
    expect(stderr).toContain('--churn-every-ms must be a whole number')
  })
})
