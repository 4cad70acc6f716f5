import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { APP_SCHEMES, serveAppRequest } from '../../../src/main/app-protocol'
import { APP_INDEX_URL } from '../../../src/core/security/policy'

/**
 * The `app://renderer/…` scheme's answers, from a real folder: the handler is
 * a plain function of (folder, Request), so no Electron is needed to run it.
 */
let root = ''
let renderer = ''

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ad-app-scheme-'))
  renderer = join(root, 'renderer')
  mkdirSync(join(renderer, 'assets'), { recursive: true })
  writeFileSync(join(renderer, 'index.html'), '<!doctype html><title>app</title>')
  writeFileSync(join(renderer, 'assets', 'index-D03wygt0.js'), 'console.log(1)')
  writeFileSync(join(renderer, '.env'), 'SECRET=dotfile')
  writeFileSync(join(root, 'outside.txt'), 'SECRET=outside')
  symlinkSync(join(root, 'outside.txt'), join(renderer, 'assets', 'link.js'))
  symlinkSync(root, join(renderer, 'up'))
})

afterAll(() => rmSync(root, { recursive: true, force: true }))

const get = (url: string, method = 'GET') => serveAppRequest(renderer, new Request(url, { method }))

describe('app:// scheme', () => {
  it('serves the page and its assets with their types and the CSP', async () => {
    const page = await get(APP_INDEX_URL)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    expect(await page.text()).toContain('<title>app</title>')
    const script = await get('app://renderer/assets/index-D03wygt0.js')
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(await script.text()).toBe('console.log(1)')
  })

  it.each([
    ['a traversal', 'app://renderer/assets/..%2f..%2foutside.txt'],
    ['an encoded dot-dot', 'app://renderer/%2e%2e/outside.txt'],
    ['a double-encoded dot-dot', 'app://renderer/%252e%252e/outside.txt'],
    ['a backslash', 'app://renderer/assets\\..\\..\\outside.txt'],
    ['a dotfile', 'app://renderer/.env'],
    ['a symbolic link to a file outside', 'app://renderer/assets/link.js'],
    ['a symbolic link to a folder outside', 'app://renderer/up/outside.txt'],
    ['another host', 'app://other/index.html'],
    ['a folder', 'app://renderer/assets'],
    ['a missing file', 'app://renderer/nothing.js'],
  ])('refuses %s', async (_name, url) => {
    const answer = await get(url)
    expect(answer.status).toBe(404)
    expect(await answer.text()).not.toContain('SECRET')
  })

  it('answers only reads', async () => {
    expect((await get(APP_INDEX_URL, 'POST')).status).toBe(405)
  })

  it('declares app: and card: privileged in one list (Electron keeps only the last call)', () => {
    expect(APP_SCHEMES.map((scheme) => scheme.scheme)).toEqual(['app', 'card'])
    expect(
      APP_SCHEMES.every((scheme) => scheme.privileges?.secure && scheme.privileges.standard),
    ).toBe(true)
  })
})
