import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The text of `docs/architecture.md`'s section "One record's path". */
function pathSection(): string {
  const doc = readFileSync(`${root}docs/architecture.md`, 'utf8')
  const start = doc.indexOf("\n## One record's path\n")
  expect(start).toBeGreaterThan(-1)
  const end = doc.indexOf('\n## ', start + 1)
  return doc.slice(start, end === -1 ? undefined : end)
}

describe('docs/architecture.md\'s "One record\'s path"', () => {
  it('names files that exist, as many as it says it names', () => {
    const section = pathSection()
    const named = new Set([...section.matchAll(/`(src\/[^`]+)`/g)].map((match) => match[1]!))
    expect(named.size).toBeGreaterThan(0)
    for (const file of named) expect(existsSync(`${root}${file}`), file).toBe(true)
    const said = /through these (\d+) files/.exec(section)
    expect(said, 'the section says how many files the path passes').not.toBeNull()
    expect(named.size).toBe(Number(said![1]))
  })
})
