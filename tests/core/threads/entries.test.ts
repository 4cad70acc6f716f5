import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { appThreads, THREAD_ENTRIES, THREAD_NAMES } from '../../../src/core/threads/entries'
import { sourceThreads } from '../../../src/core/threads/source-entries'
import { bundledThreads } from '../../../bench/bundled-threads'

const root = fileURLToPath(new URL('../../../', import.meta.url))
const core = join(root, 'src/core')

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The files that read the declaration: the build, both hosts, the bench's bundle and the tests' helpers. */
const READERS = [
  'electron.vite.config.ts',
  'src/main/index.ts',
  'src/web-host/cli.ts',
  'src/core/threads/source-entries.ts',
  'bench/bundle.ts',
  'bench/bundled-threads.ts',
  'tests/support/store-worker.ts',
]

describe('the data threads are declared once (src/core/threads/entries.ts)', () => {
  it('every worker entry of the core is declared, and every declared entry is one', () => {
    // A thread's entry is the module that answers its parent port.
    const entries = filesUnder(core)
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /\bparentPort\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(core, file))
      .sort()
    expect(entries).toEqual(Object.values(THREAD_ENTRIES).sort())
    for (const source of Object.values(THREAD_ENTRIES))
      expect(existsSync(join(core, source))).toBe(true)
  })

  it('no other file writes out an entry: each reads the declaration', () => {
    for (const reader of READERS) {
      const text = readFileSync(join(root, reader), 'utf8')
      for (const name of THREAD_NAMES) {
        expect(text, `${reader} names ${name}`).not.toContain(`'${name}`)
        expect(text, `${reader} names ${name}'s source`).not.toContain(THREAD_ENTRIES[name])
      }
    }
    for (const reader of READERS.slice(1)) {
      expect(readFileSync(join(root, reader), 'utf8')).toMatch(
        /appThreads|sourceThreads|bundledThreads|THREAD_/,
      )
    }
  })

  it('the Electron build bundles the app and exactly the declared threads', async () => {
    const { default: config } = (await import('../../../electron.vite.config')) as {
      default: { main: { build: { rollupOptions: { input: Record<string, string> } } } }
    }
    const input = config.main.build.rollupOptions.input
    expect(Object.keys(input).sort()).toEqual(['index', ...THREAD_NAMES].sort())
    for (const name of THREAD_NAMES) expect(input[name]).toBe(join(core, THREAD_ENTRIES[name]))
  })

  it('the hosts and the bench locate every declared thread, each by its own name', () => {
    const asked: string[] = []
    appThreads((name) => {
      asked.push(name)
      return { url: new URL(`file:///${name}.js`) }
    })
    expect(asked.sort()).toEqual([...THREAD_NAMES].sort())
    const source = sourceThreads()
    expect(fileURLToPath(source.pageWorker.url)).toBe(join(core, THREAD_ENTRIES['page-worker']))
    expect(source.pageWorker.execArgv).toEqual(['--import', 'tsx'])
    expect(bundledThreads('file:///out/bench/sync-child.mjs').teamWorker.url.href).toBe(
      'file:///out/bench/team-worker.mjs',
    )
  })
})
