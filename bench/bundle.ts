import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { THREAD_ENTRIES, THREAD_NAMES } from '../src/core/threads/entries'

const root = resolve(import.meta.dirname, '..')

/**
 * The bench's child processes as the app runs its code: one bundle per entry,
 * with the data threads' bundles beside them (the Electron build's layout:
 * `electron.vite.config.ts`, code split as there), not TypeScript sources loaded through tsx,
 * whose loader in every thread would be counted in the process's memory and
 * CPU time. Written to `out/bench` (git-ignored); packages stay in
 * node_modules, as electron-vite leaves them. Answers the folder.
 */
export async function bundleBenchChildren(): Promise<string> {
  const outdir = join(root, 'out/bench')
  // Chunks are named by their content: emptied first, the folder holds this build's alone.
  rmSync(outdir, { recursive: true, force: true })
  await build({
    entryPoints: {
      'start-child': join(root, 'bench/start-child.ts'),
      'sync-child': join(root, 'bench/sync-child.ts'),
      // The data threads, as declared once (src/core/threads/entries.ts).
      ...Object.fromEntries(
        THREAD_NAMES.map((name) => [name, join(root, 'src/core', THREAD_ENTRIES[name])]),
      ),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    // Shared code in chunks and dynamic imports loaded when first used, as the app's build does.
    splitting: true,
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  })
  return outdir
}
