import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { openConfFile } from '../../src/core/settings/conf-file'
import { MemoryStore } from '../../src/core/vault/memory-store'
import { startWebHost, type WebHost } from '../../src/web-host/server'
import { bootWithEmbeddedSandbox, type BootedCore } from '../support/boot'

/**
 * A card image main refuses because decoding it would cost too much memory
 * (issue 14.1): the card says so in both languages instead of looking
 * missing. The pixel cap is set below the sandbox's 320×200 cards, so every
 * card is "too large" here.
 */
let core: BootedCore
let host: WebHost
test.beforeAll(async () => {
  core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: mkdtempSync(join(tmpdir(), 'e2e-card-refused-')),
    host: 'web',
    version: '0.0.0-e2e',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    log: () => undefined,
    sandbox: { size: 40 },
    imageMaxPixels: 10_000,
  })
  host = await startWebHost({
    router: core.router,
    events: core.events,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    cards: core.images,
  })
})
test.afterAll(async () => {
  await host.close()
  await core.close()
})

test('a refused card image says it is too large to show safely, in Korean and English', async ({
  page,
}) => {
  await page.goto(host.url)
  await page.getByRole('link', { name: '보증서' }).click()
  await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  await page.getByTestId('guarantee-row').first().click()
  const card = page.getByTestId('detail-panel').getByTestId('card-image')
  await expect(card).toHaveAttribute('data-state', 'too-large')
  await expect(card).toContainText('이미지가 너무 커서 안전하게 표시할 수 없습니다')
  await page.screenshot({ path: 'test-results/card-too-large-ko.png' })
  await page.getByRole('button', { name: 'English' }).click()
  await expect(card).toContainText('Image too large to show safely')
  // The thumbnails in the list carry it as their title.
  await expect(page.getByTestId('guarantee-row').first().getByTestId('card-image')).toHaveAttribute(
    'title',
    'Image too large to show safely',
  )
})
