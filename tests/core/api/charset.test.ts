import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { isAppError } from '../../../src/core/app-error'
import { decodeBody, getJsonBody, parseJsonBody, type FetchLike } from '../../../src/core/api/http'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { startSandbox, type Sandbox } from '../../../src/sandbox'
import { encodeEucKr } from '../../../src/sandbox/echo'
import { bootForTest, call, selectService } from '../helpers/core'
import { scriptedServer, type ScriptedServer } from '../helpers/scripted-server'

const HANGUL = { name: '샤넬 클래식 플랩백 · 감정 완료', englishName: 'Chanel' }

let server: ScriptedServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

/** Serves `body` once with `contentType`. */
async function serving(body: Uint8Array, contentType: string): Promise<string> {
  server = await scriptedServer([
    (_req, res) => {
      res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length })
      res.end(body)
    },
  ])
  return server.url
}

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.catch((caught: unknown) => caught)
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`)
  return { code: error.code, message: error.message }
}

/** A GET as the client makes it: the checked bytes, then decoded and parsed. */
async function getJson(fetchFn: FetchLike, url: string): Promise<unknown> {
  return parseJsonBody(await getJsonBody(fetchFn, url))
}

describe('response text decoded by its declared charset', () => {
  it.each(['euc-kr', 'EUC-KR', 'cp949', 'MS949', 'windows-949', '"euc-kr"', 'ks_c_5601-1987'])(
    'reads application/json; charset=%s sent in EUC-KR as the right Hangul',
    async (label) => {
      const bytes = encodeEucKr(JSON.stringify(HANGUL))
      // The bytes are not UTF-8: read as UTF-8 they would be mojibake.
      expect(new TextDecoder().decode(bytes)).not.toContain('샤넬')
      const url = await serving(bytes, `application/json; charset=${label}`)
      expect(await getJson(fetch, url)).toEqual(HANGUL)
    },
  )

  it('reads UTF-8 by default and drops a byte-order mark', async () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(JSON.stringify(HANGUL)),
    ])
    expect(await getJson(fetch, await serving(bom, 'application/json'))).toEqual(HANGUL)
    expect(decodeBody(bom, 'application/json; charset=utf-8')).toBe(JSON.stringify(HANGUL))
    expect(
      decodeBody(Buffer.from('\ufeff{}', 'utf16le'), 'application/json; charset=utf-16le'),
    ).toBe('{}')
  })

  it('keeps a replacement character the service really sent', async () => {
    const body = Buffer.from(JSON.stringify({ name: 'broken \ufffd glyph' }))
    expect(await getJson(fetch, await serving(body, 'application/json'))).toEqual({
      name: 'broken \ufffd glyph',
    })
  })

  it('refuses an unknown charset with a clear bad_response', async () => {
    const url = await serving(Buffer.from('{}'), 'application/json; charset=x-klingon')
    expect(await failure(getJson(fetch, url))).toEqual({
      code: 'bad_response',
      message: 'The service declared the character set "x-klingon", which this app cannot read.',
    })
  })

  it('refuses bytes that are not valid in the declared charset instead of storing mojibake', async () => {
    const url = await serving(
      Buffer.from([0x7b, 0xff, 0xfe, 0x7d]),
      'application/json; charset=utf-8',
    )
    expect(await failure(getJson(fetch, url))).toEqual({
      code: 'bad_response',
      message:
        "The service's answer is not valid UTF-8 text, although it declared that character set.",
    })
  })
})

describe('a legacy service answering in EUC-KR, end to end', () => {
  let service: Sandbox
  beforeAll(async () => {
    service = await startSandbox({
      seed: 3,
      size: 40,
      faults: [{ kind: 'legacy_charset', charset: 'euc-kr' }],
    })
  })
  afterAll(async () => {
    await service.close()
  })

  it('stores and returns the guarantees and brands as the right Hangul', async () => {
    const core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'charset-test' })
    try {
      await selectService(core, service)
      const brands = await call(core, 'brands.refresh', {})
      expect(brands.items.map((brand) => brand.name)).toContain('샤넬')
      await call(core, 'sync.start', { resources: ['guarantees'], mode: 'full' })
      await core.sync.idle()
      const page = await call(core, 'guarantees.query', { limit: 100 })
      expect(page.total).toBe(40)
      const names = page.rows.map((row) => row.productName).join(' ')
      expect(names).toMatch(/[가-힣]/)
      expect(names).not.toContain('\ufffd')
      // Found by a Korean search, so stored as Hangul, not as mojibake.
      const word = /[가-힣]{2,}/.exec(names)?.[0] ?? ''
      const found = await call(core, 'guarantees.query', { q: word, limit: 5 })
      expect(found.total).toBeGreaterThan(0)
    } finally {
      await core.close()
    }
  })

  it('fails a sync with bad_response, storing nothing, when the charset is unknown', async () => {
    service.setFaults([{ kind: 'legacy_charset', charset: 'x-klingon' }])
    const core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'charset-test' })
    try {
      await selectService(core, service)
      await call(core, 'sync.start', { resources: ['guarantees'], mode: 'full' })
      await core.sync.idle()
      const status = await call(core, 'sync.status', {})
      const guarantees = status.resources.find((r) => r.resource === 'guarantees')
      expect(guarantees?.error?.code).toBe('bad_response')
      expect(guarantees?.error?.message).toContain('"x-klingon"')
      expect(guarantees?.recordCount).toBe(0)
    } finally {
      await core.close()
    }
  })
})
