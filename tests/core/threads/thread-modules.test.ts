import { build, type Metafile } from 'esbuild'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/**
 * What a data thread loads when it starts: the modules its entry reaches by
 * static imports (a dynamic `import()` loads when first run). Each thread is
 * an isolate of its own that loads its own copy of every module, so what it
 * never needs at start costs memory in each.
 */
async function startGraph(entry: string, dynamic = false): Promise<string[]> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL(`../../../${entry}`, import.meta.url))],
    bundle: true,
    write: false,
    metafile: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: 'out/graph',
    logLevel: 'silent',
  })
  const inputs = (result.metafile as Metafile).inputs
  const reached = new Set<string>()
  const walk = (path: string): void => {
    if (reached.has(path)) return
    reached.add(path)
    for (const next of inputs[path]?.imports ?? []) {
      if (next.kind === 'import-statement' || (dynamic && next.kind === 'dynamic-import')) {
        walk(next.path)
      }
    }
  }
  walk(entry)
  return [...reached]
}

const EXPORTS_AND_TEXTS = [
  /^src\/core\/export\//,
  /^write-excel-file/,
  /^src\/shared\/messages\//,
  /^src\/shared\/i18n\.ts$/,
  /^src\/shared\/contract\.ts$/,
]

describe("the data threads' start", () => {
  it('the database owner loads no export code, messages, IPC contract or schema library', async () => {
    const graph = await startGraph('src/core/owner/worker.ts')
    expect(graph).toContain('src/core/owner/store-ops.ts')
    expect(graph.filter((path) => EXPORTS_AND_TEXTS.some((name) => name.test(path)))).toEqual([])
    expect(graph).not.toContain('zod')
  })

  it('the page thread loads none of them either, nor the schema library (about 4 MB a thread)', async () => {
    const graph = await startGraph('src/core/sync/page-thread/worker.ts')
    expect(graph).toContain('src/core/store/write/row-format.ts')
    expect(graph.filter((path) => EXPORTS_AND_TEXTS.some((name) => name.test(path)))).toEqual([])
    expect(graph).not.toContain('zod')
  })

  it('the page thread only parses: it never loads SQLite or the image index, not even later', async () => {
    const graph = await startGraph('src/core/sync/page-thread/worker.ts', true)
    expect(graph).not.toContain('node:sqlite')
    expect(graph.filter((path) => path.startsWith('src/core/images/'))).toEqual([])
  })

  it('no data thread loads the schema library: each checks its messages by hand', async () => {
    for (const entry of [
      'src/core/images/index-worker.ts',
      'src/core/owner/checkpoint-worker.ts',
    ]) {
      const graph = await startGraph(entry)
      expect(graph, entry).not.toContain('zod')
    }
  })
})
