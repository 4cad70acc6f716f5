import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SANDBOX_ANCHOR_FILE, sandboxAnchor } from '../../src/core/sandbox-anchor'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function dataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'ad-anchor-'))
  dirs.push(dir)
  return dir
}

describe('the embedded sandbox anchor of a data folder', () => {
  it('is the first launch, and stays so on later launches', () => {
    const dir = dataDir()
    const first = Date.parse('2026-11-25T09:00:00+09:00')
    expect(sandboxAnchor(dir, first)).toBe(first)
    expect(sandboxAnchor(dir, first + 3 * 86_400_000)).toBe(first)
    expect(JSON.parse(readFileSync(join(dir, SANDBOX_ANCHOR_FILE), 'utf8'))).toEqual({
      anchor: first,
    })
  })

  it('anchors anew when the file holds no usable time', () => {
    const dir = dataDir()
    writeFileSync(join(dir, SANDBOX_ANCHOR_FILE), '{"anchor":"yesterday"}')
    expect(sandboxAnchor(dir, 1_800_000_000_000)).toBe(1_800_000_000_000)
    writeFileSync(join(dir, SANDBOX_ANCHOR_FILE), 'not json')
    expect(sandboxAnchor(dir, 1_800_000_000_001)).toBe(1_800_000_000_001)
    expect(sandboxAnchor(dir, 1_900_000_000_000)).toBe(1_800_000_000_001)
  })
})
