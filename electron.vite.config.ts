import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'

/**
 * One config for the three bundles. The preload is emitted as CommonJS
 * (`index.cjs`): a sandboxed preload cannot be an ES module, and this package
 * is `"type": "module"`, so electron-vite would otherwise emit `.mjs`.
 * https://electron-vite.org/guide/dev#limitations-of-sandboxing
 */
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // Each data thread is a worker with its own entry file (docs/architecture.md).
          // The database owner of a profile:
          'owner-worker': resolve('src/core/owner/worker.ts'),
          // Its WAL checkpointer:
          'checkpoint-worker': resolve('src/core/owner/checkpoint-worker.ts'),
          // The sync's page thread, which parses list answers:
          'page-worker': resolve('src/core/sync/page-thread/worker.ts'),
          // The team worker, which syncs marks with the profile's team server:
          'team-worker': resolve('src/core/team/worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [svelte()],
    build: {
      outDir: 'out/renderer',
      // electron-vite leaves bundles unminified; the renderer's start-up parse time is a measured target (ui_first_rows_ms).
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
})
