import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { importCycles, importGraph } from '../../support/import-graph'

/** A throwaway source tree: file path → text. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'import-graph-'))
  roots.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}
const roots: string[] = []
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })))

describe('import cycles', () => {
  it('src/core and src/shared have none, type imports and import() included', () => {
    const graph = importGraph(process.cwd(), ['src/core', 'src/shared'])
    expect(graph.size).toBeGreaterThan(100)
    expect(importCycles(graph)).toEqual([])
  })

  it('finds a cycle closed by a type import, an export … from or an import()', () => {
    const root = tree({
      'src/a.ts': "import { b } from './store/b'\nexport const a = b\n",
      'src/store/b.ts': "import type { C } from './c.js'\nexport const b: C = 1\n",
      'src/store/c.ts': "export { a } from '../a'\nexport type C = number\n",
      'src/d.ts': "export const d = () => import('./e')\n",
      'src/e.ts': "import { d } from './d'\nexport const e = d\n",
      'src/f.ts': "import { readFileSync } from 'node:fs'\nimport { a } from './a'\n",
      'src/store/index.ts': "export * from './b'\n",
      'src/g.ts': "import { b } from './store'\nexport const g = b\n",
    })
    expect(importCycles(importGraph(root, ['src']))).toEqual([
      ['src/a.ts', 'src/store/b.ts', 'src/store/c.ts'],
      ['src/d.ts', 'src/e.ts'],
    ])
  })

  it('finds a file importing itself', () => {
    const root = tree({ 'src/a.ts': "import type { A } from './a'\nexport type A = 1\n" })
    expect(importCycles(importGraph(root, ['src']))).toEqual([['src/a.ts']])
  })
})
