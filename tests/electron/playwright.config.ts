import { defineConfig } from '@playwright/test'

/**
 * The Electron smoke suite: needs a real Electron binary (`npx electron
 * --version` works), so it is not part of `npm test`; run it with
 * `npm run test:electron` after `npm run build` on a desktop machine.
 */
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results/electron',
  workers: 1,
  timeout: 60_000,
  reporter: [['list']],
})
