import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** Runs a child core (`file`, beside this one) and answers what it printed. */
function runChild<T>(file: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL(file, import.meta.url)), {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    })
    let out = ''
    child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()))
    child.on('error', reject)
    child.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT='))
      if (code !== 0 || !line) reject(new Error(`child exited ${code}: ${out}`))
      else resolve(JSON.parse(line.slice('RESULT='.length)))
    })
  })
}

describe('the main thread', () => {
  it('never loads node:sqlite: syncing, querying and serving card images run SQL in data threads', async () => {
    const { steps, sqlite } = await runChild<{ steps: string[]; sqlite: string[] }>(
      './main-thread-child.ts',
    )
    // The child did the work: a sync, a query of each list, a card fetched and then served from the index.
    expect(steps).toEqual([
      'sync.start',
      'inspections.query',
      'guarantees.query',
      'brands.search',
      'card:ok',
      'card:ok',
    ])
    expect(sqlite).toEqual([])
  }, 60_000)

  it('loads the exports’ writers, the team server’s client, the page parser and the search code only when used', async () => {
    const { atStart, afterExport } = await runChild<{ atStart: string[]; afterExport: string[] }>(
      './start-modules-child.ts',
    )
    const lazy = [
      /\/node_modules\/write-excel-file\//,
      /\/node_modules\/pg\//,
      /\/src\/core\/export\//,
      /\/src\/core\/team\/session\.ts$/,
      /\/src\/core\/wallet\/history-csv\.ts$/,
      /\/src\/core\/sync\/page-thread\/worker\.ts$/,
      // The search code and its Hangul library: the data threads' (the main thread moves bytes).
      /\/node_modules\/es-hangul\//,
      /\/src\/core\/store\/search-text\.ts$/,
    ]
    const matching = (urls: string[]) => urls.filter((url) => lazy.some((name) => name.test(url)))
    // The core started and answered a page: its main thread loaded none of them.
    expect(atStart.some((url) => url.endsWith('/src/core/app.ts'))).toBe(true)
    expect(matching(atStart)).toEqual([])
    // An export loads what names its file (the owner wrote it).
    expect(matching(afterExport)).toContainEqual(expect.stringMatching(/export\/list-csv\.ts$/))
  }, 60_000)
})
