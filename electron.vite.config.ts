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
          // Each profile's database is owned by a worker thread; it needs its own entry file.
          'owner-worker': resolve('src/core/store/owner-worker.ts'),
          // Sync pages are parsed in a thread of their own (src/core/sync/page-worker.ts).
          'page-worker': resolve('src/core/sync/page-worker.ts'),
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
