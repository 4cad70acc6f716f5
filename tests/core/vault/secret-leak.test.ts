import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { startWebHost, type WebHost } from '../../../src/web-host/server'
import { cardImageSrc } from '../../../src/shared/card-url'
import { bootForTest } from '../helpers/core'
import { keychainForTests } from '../helpers/keychain'

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })
}

describe('secrets never leave main', () => {
  let second: Sandbox
  let kc: Awaited<ReturnType<typeof keychainForTests>>
  beforeAll(async () => {
    second = await startSandbox({ seed: 7, size: 20 })
    kc = await keychainForTests()
  })
  afterAll(async () => {
    await second.close()
    await kc.cleanup()
  })

  it('a full sandbox session leaves no key or secret in settings, data folder, logs, IPC or web-host answers', async () => {
    const captured: string[] = []
    const capture = (chunk: unknown): boolean => {
      captured.push(String(chunk))
      return true
    }
    const spies = [
      vi.spyOn(process.stdout, 'write').mockImplementation(capture),
      vi.spyOn(process.stderr, 'write').mockImplementation(capture),
      ...(['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
        vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
          captured.push(args.map(String).join(' '))
        }),
      ),
    ]
    const core = await bootForTest({
      keychain: kc.keychain,
      keychainService: kc.service,
      log: (line) => captured.push(line),
    })
    const host: WebHost = await startWebHost({
      router: core.router,
      events: core.events,
      rendererDir: mkdtempSync(join(tmpdir(), 'renderer-')),
      cards: core.images,
    })
    const answers: string[] = []
    const secrets = [second.apiKey, second.apiSecret, core.sandbox.apiKey, core.sandbox.apiSecret]
    const longSecret = `${second.apiSecret}${'x'.repeat(3000)}`

    try {
      const events = await fetch(`http://127.0.0.1:${host.port}/events`, {
        headers: { 'x-app-token': host.token },
      })
      const eventReader = events.body!.pipeThrough(new TextDecoderStream()).getReader()
      // The card cookie a browser keeps from the web host's answers (images need it).
      const cardCookie = (events.headers.get('set-cookie') ?? '').split(';')[0] ?? ''

      /** One call through the web host (what the browser sees) and its raw answer text. */
      const web = async (channel: string, args: unknown): Promise<{ value?: { id?: string } }> => {
        const response = await fetch(`http://127.0.0.1:${host.port}/ipc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-app-token': host.token },
          body: JSON.stringify(args),
        })
        const text = await response.text()
        answers.push(text)
        return JSON.parse(text) as { value?: { id?: string } }
      }
      /** The same router as Electron's IPC uses, answer kept as structured-clone-able JSON. */
      const ipc = async (channel: string, args: unknown): Promise<unknown> => {
        const result = await core.router.dispatch(channel, args)
        answers.push(JSON.stringify(result))
        return result
      }

      await web('profiles.list', {})
      const saved = await web('profiles.save', {
        name: 'Seed 7',
        baseUrl: second.baseUrl,
        staticUrl: second.staticUrl,
        partnerId: second.partnerId,
        redirectUri: 'https://shop.example.com/done',
      })
      const id = saved.value?.id ?? ''
      await web('profiles.setSecret', { id, apiKey: second.apiKey, apiSecret: second.apiSecret })
      await web('profiles.test', { id })
      await web('profiles.select', { id })
      await web('brands.refresh', {})
      // A full sync of this account, the lists read back, and a card image through the cache.
      await web('sync.start', { mode: 'full' })
      await core.sync.idle()
      const synced = (await web('sync.status', {})) as unknown as {
        value: { resources: { resource: string; recordCount: number }[] }
      }
      expect(synced.value.resources.find((r) => r.resource === 'guarantees')?.recordCount).toBe(20)
      await web('inspections.query', { q: '샤넬' })
      const page = (await web('guarantees.query', {})) as unknown as {
        value: { rows: { cardUrl: string }[] }
      }
      const card = await fetch(
        `http://127.0.0.1:${host.port}${cardImageSrc('/card', page.value.rows[0]!.cardUrl)}`,
        { headers: { cookie: cardCookie } },
      )
      expect(card.status).toBe(200)
      await web('brands.search', { query: 'ㅅㄴ' })
      await ipc('brands.search', { query: 'chanel' })
      await ipc('app.info', {})
      await ipc('profiles.list', {})
      await ipc('settings.get', {})
      // Failures echo nothing they were given.
      await web('profiles.setSecret', { id, apiSecret: longSecret })
      await web('profiles.save', { name: 'x', apiSecret: second.apiSecret })
      await ipc('profiles.setSecret', { id: 'no-such', apiSecret: second.apiSecret })
      await web('profiles.setSecret', { id, apiSecret: 'wrong_secret_0123456789' })
      await web('profiles.test', { id })
      await web('brands.refresh', {})
      await web('profiles.setSecret', { id, apiKey: second.apiKey, apiSecret: second.apiSecret })
      await web('profiles.select', { id: 'sandbox' })
      await web('brands.refresh', {})
      // The synced cache of the removed account stays on disk, so it is searched below too.
      await web('profiles.remove', { id, deleteCache: false })

      let eventText = ''
      const timer = setTimeout(() => void eventReader.cancel(), 200)
      for (;;) {
        const { done, value } = await eventReader.read().catch(() => ({ done: true, value: '' }))
        if (done) break
        eventText += value
      }
      clearTimeout(timer)
      answers.push(eventText)
      expect(eventText).toContain('profiles.changed')
      expect(answers.some((answer) => answer.includes('"outcome":"ok"'))).toBe(true)
      expect(answers.some((answer) => answer.includes('"wrong_credentials"'))).toBe(true)
    } finally {
      await host.close()
      await core.close()
      for (const spy of spies) spy.mockRestore()
    }

    const files = filesUnder(core.dataDir)
    expect(files.some((file) => file.endsWith('settings.json'))).toBe(true)
    // The synced caches (the removed account's included) and the card images are searched too.
    expect(files.filter((file) => /\/cache\/[^/]+\.sqlite$/.test(file)).length).toBe(2)
    expect(files.filter((file) => file.includes('/images/')).length).toBeGreaterThan(0)
    const haystacks: Array<[string, string]> = [
      ...files.map((file): [string, string] => [file, readFileSync(file).toString('latin1')]),
      ['logs', captured.join('\n')],
      ['answers', answers.join('\n')],
    ]
    for (const [where, text] of haystacks) {
      for (const secret of secrets) {
        expect(text.includes(secret), `${secret.slice(0, 8)}… found in ${where}`).toBe(false)
        expect(text.includes(encodeURIComponent(secret)), `encoded secret in ${where}`).toBe(false)
      }
    }
  })
})
