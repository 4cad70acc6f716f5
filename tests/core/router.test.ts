import { describe, expect, it } from 'vitest'
import { CHANNEL_NAMES } from '../../src/shared/channels'
import { argSchemas } from '../../src/shared/contract'
import { createRouter, MAX_ARGS_BYTES, type Handlers } from '../../src/core/router'
import { AppError } from '../../src/core/app-error'
import { bootWithEmbeddedSandbox } from '../support/boot'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { openConfFile } from '../../src/core/settings/conf-file'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../support/store-worker'

/** Handlers for the router's own behaviour; channels a test does not call fail loudly. */
function handlers(overrides: Partial<Handlers> = {}): Handlers {
  const unused = Object.fromEntries(
    CHANNEL_NAMES.map((channel) => [
      channel,
      () => {
        throw new AppError('internal', `${channel} is not used in this test`)
      },
    ]),
  )
  const empty = { items: [], total: 0, freshness: { fetchedAt: null, source: 'cache' as const } }
  return {
    ...unused,
    'brands.search': () => empty,
    ...overrides,
  } as Handlers
}

describe('router', () => {
  it('has exactly one handler and one schema per channel of the contract', async () => {
    const core = await bootWithEmbeddedSandbox({
      fetch: globalThis.fetch,
      dataDir: mkdtempSync(join(tmpdir(), 'ad-router-')),
      host: 'web',
      version: '0.0.0',
      keychain: new MemoryStore(),
      openSettings: openConfFile,
      storeWorker: SOURCE_STORE_WORKER,
      pageWorker: SOURCE_PAGE_WORKER,
      imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
      sandbox: { size: 10 },
    })
    await core.close()
    expect([...core.router.channels].sort()).toEqual([...CHANNEL_NAMES].sort())
    expect(Object.keys(argSchemas).sort()).toEqual([...CHANNEL_NAMES].sort())
    expect(new Set(CHANNEL_NAMES).size).toBe(CHANNEL_NAMES.length)
  })

  it('answers unknown channels with unknown_channel, not a handler call', async () => {
    const router = createRouter(handlers())
    expect(await router.dispatch('fs.readFile', { path: '/etc/passwd' })).toEqual({
      ok: false,
      error: { code: 'unknown_channel', message: 'Unknown channel.' },
    })
    expect((await router.dispatch('__proto__', {})).ok).toBe(false)
    expect((await router.dispatch('constructor', {})).ok).toBe(false)
  })

  it.each([
    ['a number instead of a string', { query: 42 }],
    ['an extra field', { query: 'x', sql: 'DROP TABLE brands' }],
    ['an array instead of an object', ['x']],
    ['null', null],
    ['a string longer than allowed', { query: 'x'.repeat(201) }],
  ])('rejects %s with invalid_argument and names the field, not the value', async (_name, args) => {
    const router = createRouter(handlers())
    const answer = await router.dispatch('brands.search', args)
    expect(answer.ok).toBe(false)
    if (answer.ok) return
    expect(answer.error.code).toBe('invalid_argument')
    expect(answer.error.message).not.toContain('DROP TABLE')
    expect(answer.error.message).not.toContain('x'.repeat(50))
  })

  it('rejects payloads over the size cap before parsing them', async () => {
    const router = createRouter(handlers())
    const answer = await router.dispatch('brands.search', { query: 'a'.repeat(MAX_ARGS_BYTES + 1) })
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
  })

  it('fills defaults and passes parsed arguments to the handler', async () => {
    let seen: unknown
    const router = createRouter(
      handlers({
        'brands.search': (args) => {
          seen = args
          return { items: [], total: 0, freshness: { fetchedAt: null, source: 'cache' } }
        },
      }),
    )
    expect((await router.dispatch('brands.search', undefined)).ok).toBe(true)
    expect(seen).toEqual({ query: '' })
  })

  it('turns AppError into data and redacts secrets from its message', async () => {
    const router = createRouter(
      handlers({
        'brands.refresh': () => {
          throw new AppError('auth', 'rejected key SECRET-KEY-1234', { status: 401 })
        },
      }),
      { redact: (text) => text.replaceAll('SECRET-KEY-1234', '[redacted]') },
    )
    expect(await router.dispatch('brands.refresh', {})).toEqual({
      ok: false,
      error: { code: 'auth', message: 'rejected key [redacted]', status: 401 },
    })
  })

  it('hides unexpected errors behind a generic internal error without stack or paths', async () => {
    const logged: string[] = []
    const router = createRouter(
      handlers({
        'brands.refresh': () => {
          throw new Error('ENOENT: /home/staff/.config/secret-path')
        },
      }),
      { log: (line) => logged.push(line) },
    )
    const answer = await router.dispatch('brands.refresh', {})
    expect(answer).toEqual({
      ok: false,
      error: { code: 'internal', message: 'Unexpected error; see the log for details.' },
    })
    expect(JSON.stringify(answer)).not.toContain('/home/staff')
    expect(logged.join('\n')).toContain('ENOENT')
  })
})
