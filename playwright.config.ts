import { existsSync } from 'node:fs'
import { defineConfig } from '@playwright/test'

/**
 * End-to-end tests: the real renderer (built into `out/renderer`) against the
 * real core, through the web host, in Debian's Chromium. Where no system
 * Chromium exists, Playwright's own browser is used on a developer machine;
 * in CI a missing browser is a failure, never a skip.
 */
const SYSTEM_CHROMIUM = '/usr/bin/chromium'
const executablePath = existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined
if (!executablePath && process.env['CI']) {
  throw new Error(
    `CI needs Chromium at ${SYSTEM_CHROMIUM} (apt-get install chromium); refusing to skip the e2e suite.`,
  )
}

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 30_000,
  reporter: [['list']],
  use: {
    viewport: { width: 1280, height: 820 },
    locale: 'ko-KR',
    timezoneId: 'Asia/Seoul',
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(executablePath ? { executablePath } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
})
