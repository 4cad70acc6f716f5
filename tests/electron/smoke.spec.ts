import {
  _electron as electron,
  expect,
  test,
  type ElectronApplication,
  type Page,
} from '@playwright/test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { demoCredentials } from '../../src/sandbox/seed'
import { DISABLED_CHROMIUM_FEATURES } from '../../src/shared/chromium-features'

/**
 * What only Electron runs: the window, the CommonJS preload, IPC sender
 * checks, the `card:` protocol, the writer thread's built entry, and the
 * navigation and window-open guards. Needs a real Electron binary.
 */
let app: ElectronApplication

test.beforeAll(async () => {
  const userData = mkdtempSync(join(tmpdir(), 'ad-electron-'))
  app = await electron.launch({
    args: ['.', `--user-data-dir=${userData}`],
    env: { ...process.env, NODE_ENV: 'production' },
  })
})

test.afterAll(async () => {
  await app?.close()
})

test('opens on the built-in sandbox and syncs it by itself', async () => {
  const page = await app.firstWindow()
  // The first screen is the dashboard; the inspections list is the next entry.
  await expect(page.getByRole('heading', { level: 1, name: '대시보드' })).toBeVisible()
  await page.getByRole('navigation').getByRole('link', { name: '감정 내역', exact: true }).click()
  await expect(page.getByRole('heading', { name: '감정 내역' })).toBeVisible()
  // The background sync (pages parsed in the page thread, written by the owner thread) fills the
  // list without a click: out/main/page-worker.js and owner-worker.js both load.
  await expect(page.getByTestId('inspection-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByText('데모 데이터', { exact: false }).first()).toBeVisible()
})

test('brand search works over IPC', async () => {
  const page = await app.firstWindow()
  await page.getByRole('link', { name: '브랜드' }).click()
  await page.getByRole('searchbox').fill('샤넬')
  await expect(page.getByTestId('brand-row')).toHaveCount(2)
})

test('card images load through the card: protocol', async () => {
  const page = await app.firstWindow()
  await page.getByRole('link', { name: '보증서' }).click()
  await expect(page.getByTestId('guarantee-row').first()).toBeVisible({ timeout: 30_000 })
  await expect(page.getByTestId('card-image').first()).toHaveAttribute('data-state', 'loaded')
})

test('the renderer sees window.api only, and no Node', async () => {
  const page = await app.firstWindow()
  const surface = await page.evaluate(() => ({
    api: Object.keys((window as unknown as { api: object }).api).sort(),
    require: typeof (window as unknown as { require?: unknown }).require,
    process: typeof (window as unknown as { process?: unknown }).process,
  }))
  expect(surface).toEqual({ api: ['invoke', 'on'], require: 'undefined', process: 'undefined' })
})

test('the renderer runs without the Chromium features the app turns off', async () => {
  const value = await app.evaluate(({ app: electronApp }) =>
    electronApp.commandLine.getSwitchValue('disable-features'),
  )
  expect(value.split(',')).toEqual(expect.arrayContaining([...DISABLED_CHROMIUM_FEATURES]))
})

test('window.open and navigation away are denied', async () => {
  const page = await app.firstWindow()
  const windows = () => app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)
  const before = await windows()
  // window.open returns once the main process's handler has answered: null when it denied.
  expect(await page.evaluate(() => window.open('https://example.com', '_blank') === null)).toBe(
    true,
  )
  expect(await windows()).toBe(before)

  // A listener added after the app's guard sees the guard's decision on the same navigation.
  await app.evaluate(({ webContents }, url) => {
    const contents = webContents.getAllWebContents().find((c) => c.getURL() === url)!
    const decided = new Promise<{ url: string; prevented: boolean }>((resolve) => {
      contents.once('will-navigate', (navigation) =>
        resolve({ url: navigation.url, prevented: navigation.defaultPrevented }),
      )
    })
    Object.assign(globalThis, { smokeNavigation: decided })
  }, page.url())
  await page.evaluate(() => {
    location.href = 'https://example.com'
  })
  const decision = await app.evaluate(
    () => (globalThis as unknown as { smokeNavigation: Promise<unknown> }).smokeNavigation,
  )
  expect(decision).toEqual({ url: 'https://example.com/', prevented: true })
  expect(page.url()).toMatch(/^app:\/\/renderer\/index\.html/)
})

test('an untrusted certificate is refused by the explicit handler', async () => {
  const refused = await app.evaluate(({ app: electronApp }) => {
    let trusted: boolean | null = null
    electronApp.emit(
      'certificate-error',
      { preventDefault: () => undefined },
      null,
      'https://self-signed.invalid/',
      'net::ERR_CERT_AUTHORITY_INVALID',
      null,
      (answer: boolean) => (trusted = answer),
      true,
    )
    return trusted
  })
  expect(refused).toBe(false)
})

test('one window: the single-instance lock holds', async () => {
  const count = await app.evaluate(({ BrowserWindow }) => BrowserWindow.getAllWindows().length)
  expect(count).toBe(1)
})

test.describe('wallet link window', () => {
  /** The embedded sandbox's demo key (seed 1): it must never show anywhere. */
  const demoKey = demoCredentials(1).apiKey

  async function start(page: Page, member: string): Promise<Page> {
    await page.getByRole('link', { name: '지갑 연동' }).click()
    const form = page.getByTestId('wallet-presync-form')
    await form.getByLabel('회원 ID (refUserId)').fill(member)
    const opened = app.waitForEvent('window')
    await form.getByRole('button', { name: '지갑 연결 시작' }).click()
    return opened
  }

  test('opens sandboxed with no preload on its own in-memory partition, and completes', async () => {
    const page = await app.firstWindow()
    const wallet = await start(page, 'member-smoke')
    await expect(wallet.getByRole('link', { name: /완료/ })).toBeVisible()
    const shape = await app.evaluate(({ BrowserWindow }) =>
      BrowserWindow.getAllWindows().map((win) => ({
        title: win.getTitle(),
        persistent: win.webContents.session.isPersistent(),
        storagePath: win.webContents.session.storagePath,
        webRtc: win.webContents.getWebRTCIPHandlingPolicy(),
      })),
    )
    const walletWindow = shape.find((win) => win.title.includes('Wallet link'))
    expect(walletWindow).toMatchObject({
      persistent: false,
      storagePath: null,
      webRtc: 'disable_non_proxied_udp',
    })
    // No preload (no window.api) and no Node in the page.
    expect(
      await wallet.evaluate(() => [
        typeof (window as { api?: unknown }).api,
        typeof (window as { require?: unknown }).require,
        typeof (window as { process?: unknown }).process,
      ]),
    ).toEqual(['undefined', 'undefined', 'undefined'])
    expect(JSON.stringify(shape)).not.toContain(demoKey)
    expect(await wallet.evaluate(() => Notification.requestPermission())).toBe('denied')
    await wallet.getByRole('link', { name: /완료/ }).click()
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'completed')
    expect(await page.content()).not.toContain(demoKey)
  })

  test('a redirect to a foreign origin is blocked and closes the window', async () => {
    const page = await app.firstWindow()
    await start(page, 'foreign-smoke')
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'blocked')
    await expect(page.getByTestId('wallet-outcome')).toContainText('https://wallet-partner.invalid')
    await expect.poll(() => app.windows().length).toBe(1)
  })

  test('an HTTP error fails and closing the window cancels', async () => {
    const page = await app.firstWindow()
    await start(page, 'error-smoke')
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'failed')
    const wallet = await start(page, 'member-smoke-close')
    await wallet.close()
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'cancelled')
  })
})

test.describe('the app lock', () => {
  const pin = '7315'
  /** The preload's `window.api.invoke`, called from the page. */
  const invoke = (page: Page, channel: string, args: object) =>
    page.evaluate(
      ([name, value]) =>
        (
          window as unknown as {
            api: { invoke(c: string, a: object): Promise<{ ok: boolean; error?: unknown }> }
          }
        ).api.invoke(name as string, value as object),
      [channel, args] as const,
    )

  test('locks when the OS sleeps and from the menu, hides the desk, and unlocks with the PIN', async () => {
    const page = await app.firstWindow()
    await page.getByRole('link', { name: '보증서' }).click()
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible({ timeout: 30_000 })
    const set = await invoke(page, 'lock.setPin', { pin })
    expect(set.ok).toBe(true)

    // powerMonitor's `suspend` (main's wiring, app-lock.ts) locks core; the window follows.
    await app.evaluate(({ powerMonitor }) => powerMonitor.emit('suspend'))
    await expect(page.getByTestId('lock-screen')).toBeVisible()
    expect(await page.getByTestId('guarantee-row').count()).toBe(0)
    expect(await page.locator('img').count()).toBe(0)
    const refused = await invoke(page, 'guarantees.query', {})
    expect(refused).toMatchObject({ ok: false, error: { code: 'locked' } })
    await page.getByLabel('PIN 또는 비밀번호').fill(pin)
    await page.getByRole('button', { name: '잠금 해제' }).click()
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()

    // The File menu's Lock now runs in main (lockApp), whatever the page is doing.
    await app.evaluate(({ Menu }) =>
      Menu.getApplicationMenu()?.getMenuItemById('app.lock')?.click(),
    )
    await expect(page.getByTestId('lock-screen')).toBeVisible()
    await page.getByLabel('PIN 또는 비밀번호').fill(pin)
    await page.getByRole('button', { name: '잠금 해제' }).click()
    await expect(page.getByTestId('lock-screen')).toBeHidden()
    const removed = await invoke(page, 'lock.removePin', { current: pin })
    expect(removed.ok).toBe(true)
  })
})
