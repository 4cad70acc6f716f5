import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** The project's own documents: the README and everything under docs/. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** Relative targets of Markdown links (`[text](target)`), without anchors; web links left out. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
}

describe('documentation links', () => {
  it.each(DOCS)('%s links only to files a clone of the project has', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    for (const target of relativeLinks(text)) {
      const path = resolve(dirname(join(ROOT, doc)), target)
      expect(path.startsWith(ROOT + '/'), `${doc} → ${target} leaves the project`).toBe(true)
      expect(existsSync(path), `${doc} → ${target}`).toBe(true)
    }
    expect(text).not.toMatch(/\.\.\/shared\/spec/)
  })

  it('the partner API spec the project follows is inside the project, with where it comes from', () => {
    const spec = readFileSync(join(ROOT, 'docs/partner-api.md'), 'utf8')
    expect(spec).toMatch(/^<!--[\s\S]*Source:[\s\S]*-->/)
    expect(spec).toContain('# Partner Guarantee and Inspection Service Interface')
  })
})
