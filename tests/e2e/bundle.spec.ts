import { test, expect } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/** Checks of the build output that `npm test` produces before the e2e suite runs. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

test('the preload is CommonJS and requires only electron', () => {
  const preload = readFileSync('out/preload/index.cjs', 'utf8')
  expect(preload).toMatch(/require\("electron"\)/)
  expect(preload).not.toMatch(/^\s*import\s/m)
  expect(preload).not.toMatch(/^\s*export\s/m)
  const requires = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1])
  expect(new Set(requires)).toEqual(new Set(['electron']))
})

test('the packaged bundles contain no web host (docs/faults.md F48)', () => {
  for (const file of filesUnder('out').filter((name) => /\.(c?js|mjs)$/.test(name))) {
    const text = readFileSync(file, 'utf8')
    expect(text, file).not.toContain('startWebHost')
    expect(text, file).not.toContain('handleWalletPopup')
  }
  // The renderer carries the small HTTP shim it uses when no preload exists; main never serves it.
  for (const file of filesUnder('out/main')) {
    expect(readFileSync(file, 'utf8'), file).not.toContain('x-app-token')
  }
})
