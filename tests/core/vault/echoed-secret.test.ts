import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { echoed } from '../../../src/sandbox/echo'
import { ECHO_FORMS } from '../../../src/sandbox/faults'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { bootForTest, selectService } from '../helpers/core'

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every form a careless service echoes `secret` in, lower-cased (searched case-insensitively). */
function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret)
  return [
    ...ECHO_FORMS.map((form) => echoed(secret, form)),
    bytes.toString('base64').replace(/=+$/, ''),
    // base64 after an 8-byte prefix: only the part that depends on the secret.
    Buffer.from(`partner:${secret}`).toString('base64').slice(12, -4),
    encodeURIComponent(secret),
    bytes.toString('hex'),
  ].map((form) => form.toLowerCase())
}

describe('a service that echoes the API key back in altered form', () => {
  let service: Sandbox
  beforeAll(async () => {
    service = await startSandbox({ seed: 11, size: 30 })
  })
  afterAll(async () => {
    await service.close()
  })

  it('gets no form of the key or secret into IPC answers, logs, settings, the database or its WAL', async () => {
    const captured: string[] = []
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        captured.push(args.map(String).join(' '))
      }),
    )
    const core = await bootForTest({
      keychain: new MemoryStore(),
      keychainService: 'echo-test',
      log: (line) => captured.push(line),
    })
    const answers: string[] = []
    const call = async (channel: string, args: unknown): Promise<void> => {
      answers.push(JSON.stringify(await core.router.dispatch(channel, args)))
    }
    const snapshots: Array<[string, string]> = []
    try {
      const id = await selectService(core, service)
      for (const status of [400, 401, 403, 500]) {
        for (const form of ECHO_FORMS) {
          service.setFaults([{ kind: 'echo_key', form, status }])
          await call('profiles.test', { id })
          await call('brands.refresh', {})
          await call('sync.start', { resources: ['guarantees'], mode: 'full' })
          await core.sync.idle()
          await call('sync.status', {})
        }
      }
      // The failures were seen and told: fixed words for 401/403, the service's words otherwise.
      const all = answers.join('\n')
      expect(all).toContain('The service rejected the API key or secret (401). Request id: req-')
      expect(all).toContain('The API key may not access this partner (403). Request id: req-')
      expect(all).toContain('Rejected key [redacted] with secret [redacted]')
      // Files while the database is open (its WAL holds the latest writes).
      for (const file of filesUnder(core.dataDir)) {
        snapshots.push([`${file} (open)`, readFileSync(file).toString('latin1')])
      }
    } finally {
      await core.close()
      for (const spy of spies) spy.mockRestore()
    }
    for (const file of filesUnder(core.dataDir)) {
      snapshots.push([file, readFileSync(file).toString('latin1')])
    }
    expect(snapshots.some(([file]) => file.endsWith('-wal (open)'))).toBe(true)
    expect(snapshots.some(([file]) => file.endsWith('settings.json'))).toBe(true)
    const haystacks: Array<[string, string]> = [
      ...snapshots,
      ['logs', captured.join('\n')],
      ['answers', answers.join('\n')],
    ]
    for (const secret of [service.apiKey, service.apiSecret]) {
      for (const form of formsOf(secret)) {
        for (const [where, text] of haystacks) {
          expect(text.toLowerCase().includes(form), `${form.slice(0, 6)}… found in ${where}`).toBe(
            false,
          )
        }
      }
    }
  }, 60_000)
})
