import { resolve } from 'node:path'
import { defineConfig } from 'electron-vite'
import { svelte } from '@sveltejs/vite-plugin-svelte'
import { THREAD_ENTRIES, THREAD_NAMES } from './src/core/threads/entries'

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
          // Each data thread is a worker with its own entry file, declared once (docs/architecture.md).
          ...Object.fromEntries(
            THREAD_NAMES.map((name) => [name, resolve('src/core', THREAD_ENTRIES[name])]),
          ),
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
