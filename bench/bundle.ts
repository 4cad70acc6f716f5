import { build } from 'esbuild'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')

/**
 * The bench's child processes as the app runs its code: one bundle per entry,
 * with the data threads' bundles beside them (the Electron build's layout:
 * `electron.vite.config.ts`), not TypeScript sources loaded through tsx,
 * whose loader in every thread would be counted in the process's memory and
 * CPU time. Written to `out/bench` (git-ignored); packages stay in
 * node_modules, as electron-vite leaves them. Answers the folder.
 */
export async function bundleBenchChildren(): Promise<string> {
  const outdir = join(root, 'out/bench')
  await build({
    entryPoints: {
      'start-child': join(root, 'bench/start-child.ts'),
      'sync-child': join(root, 'bench/sync-child.ts'),
      'owner-worker': join(root, 'src/core/store/owner/worker.ts'),
      'checkpoint-worker': join(root, 'src/core/store/owner/checkpoint-worker.ts'),
      'page-worker': join(root, 'src/core/sync/page-thread/worker.ts'),
      'team-worker': join(root, 'src/core/team/worker.ts'),
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  })
  return outdir
}

/** A data thread's bundle beside the child's own (`import.meta.url` of a bundled child). */
export function bundledThreads(childUrl: string): {
  storeWorker: { owner: { url: URL }; checkpointer: { url: URL } }
  pageWorker: { url: URL }
  teamWorker: { url: URL }
} {
  const thread = (name: string): { url: URL } => ({ url: new URL(`./${name}.mjs`, childUrl) })
  return {
    storeWorker: { owner: thread('owner-worker'), checkpointer: thread('checkpoint-worker') },
    pageWorker: thread('page-worker'),
    teamWorker: thread('team-worker'),
  }
}
