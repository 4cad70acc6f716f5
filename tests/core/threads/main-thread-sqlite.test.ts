import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

/** Runs the child core and answers what it printed. */
function runChild(): Promise<{ steps: string[]; sqlite: string[] }> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./main-thread-child.ts', import.meta.url)), {
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
    const { steps, sqlite } = await runChild()
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
})
