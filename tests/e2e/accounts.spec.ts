import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createServer, type AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { bootWithEmbeddedSandbox, type BootedCore } from '../support/boot'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../support/store-worker'
import { openConfFile } from '../../src/core/settings/conf-file'
import type { AppThreads } from '../../src/core/threads/entries'
import { sourceThreads } from '../../src/core/threads/source-entries'
import { MemoryStore } from '../../src/core/vault/memory-store'
import type { SecureStore } from '../../src/core/vault/secure-store'
import type { ProfileList } from '../../src/shared/profiles'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import { startWebHost, type WebHost } from '../../src/web-host/server'

/**
 * The Accounts screen in Chromium against the real core and two sandboxes
 * (needs `npx electron-vite build` first). The keychain is the session
 * memory store, or one that fails the way keytar does without D-Bus.
 */
let second: Sandbox
test.beforeAll(async () => {
  second = await startSandbox({ seed: 7, size: 50 })
})
test.afterAll(async () => {
  await second.close()
})

async function launch(
  keychain: SecureStore,
  options: { teamWorker?: AppThreads['teamWorker'] } = {},
): Promise<{ core: BootedCore; host: WebHost }> {
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: mkdtempSync(join(tmpdir(), 'e2e-accounts-')),
    host: 'web',
    version: '0.0.0-e2e',
    keychain,
    keychainService: 'Appraisal Desk e2e',
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    log: () => undefined,
    sandbox: { size: 50 },
    ...(options.teamWorker === undefined ? {} : { teamWorker: options.teamWorker }),
  })
  const host = await startWebHost({
    router: core.router,
    events: core.events,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
  })
  return { core, host }
}

async function addSecondProfile(page: Page, name: string): Promise<void> {
  await page.getByRole('link', { name: '계정', exact: true }).click()
  await page.getByRole('button', { name: '계정 추가' }).click()
  const form = page.getByTestId('profile-form')
  await form.locator('input[name=name]').fill(name)
  await form.locator('input[name=partnerId]').fill(second.partnerId)
  await form.locator('input[name=baseUrl]').fill(second.baseUrl)
  await form.locator('input[name=staticUrl]').fill(second.staticUrl)
  await form.locator('input[name=redirectUri]').fill('https://shop.example.com/wallet/done')
  // The request deadline starts at 30 s; a value out of range is told next to its field.
  const deadline = form.locator('input[name=timeoutSeconds]')
  await expect(deadline).toHaveValue('30')
  await deadline.fill('900')
  await form.getByRole('button', { name: '저장' }).click()
  await expect(form).toContainText('1초에서 300초 사이의 정수로 입력하세요.')
  await deadline.fill('12')
  await form.getByRole('button', { name: '저장' }).click()
  const secret = page.getByTestId('secret-form')
  await secret.locator('input[name=apiKey]').fill(second.apiKey)
  await secret.locator('input[name=apiSecret]').fill(second.apiSecret)
  await secret.getByRole('button', { name: '저장' }).click()
}

test('add a partner account, test it, switch to it, remove it', async ({ page }) => {
  const { core, host } = await launch(new MemoryStore())
  try {
    await page.goto(host.url)
    await addSecondProfile(page, '청담 본점')
    const card = page.locator('[data-testid=profile-card]', { hasText: '청담 본점' })
    await expect(card.getByTestId('credential-state')).toHaveText(
      // This host keeps keys in memory: the card says so, never "in the keychain".
      `이번 세션에만 보관 중 · 키 끝자리 ${second.apiKey.slice(-4)}`,
    )
    await expect(page.locator('body')).not.toContainText(second.apiSecret)
    const listed = await core.router.dispatch('profiles.list', {})
    expect(JSON.stringify(listed)).toContain('"timeoutSeconds":12')

    await card.getByRole('button', { name: '연결 테스트' }).click()
    await expect(card.getByTestId('test-result')).toHaveAttribute('data-outcome', 'ok')

    // Editing: pointing the account at another host warns that its stored key goes; a path does not.
    await card.getByRole('button', { name: '편집' }).click()
    const form = page.getByTestId('profile-form')
    const baseUrl = form.locator('input[name=baseUrl]')
    const before = await baseUrl.inputValue()
    await baseUrl.fill(`${before}/v2`)
    await expect(form.getByTestId('profile-drops-key')).toHaveCount(0)
    await baseUrl.fill('https://partner.example.com')
    await expect(form.getByTestId('profile-drops-key')).toContainText(
      'API 키와 시크릿이 지워지므로',
    )
    await form.screenshot({ path: 'test-results/profile-drops-key.png' })
    await form.getByRole('button', { name: '취소' }).click()
    await expect(card.getByTestId('credential-state')).toContainText('이번 세션에만 보관 중')

    await card.getByRole('button', { name: '이 계정 사용' }).click()
    await expect(card.getByText('사용 중')).toBeVisible()
    await page.getByRole('link', { name: '브랜드', exact: true }).click()
    await expect(page.getByTestId('brand-row').first()).toBeVisible()
    await expect(page.locator('.sidebar')).toContainText('청담 본점')

    await page.getByRole('link', { name: '계정', exact: true }).click()
    await card.getByRole('button', { name: '삭제' }).click()
    await page.getByRole('alertdialog').getByRole('button', { name: '삭제' }).click()
    await expect(card).toHaveCount(0)
    await expect(page.locator('.sidebar')).toContainText('샌드박스')
  } finally {
    await host.close()
    await core.close()
  }
})

test('without a keychain: the message names the fix and "this session only" stores the key', async ({
  page,
}) => {
  // keytar's own error without a D-Bus session (seen on this machine).
  const absent = new MemoryStore()
  absent.set = () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'))
  const { core, host } = await launch(absent)
  try {
    await page.goto(host.url)
    await addSecondProfile(page, '키체인 없음')
    const banner = page.getByTestId('secret-form').getByTestId('error-banner')
    await expect(banner).toHaveAttribute('data-code', 'keychain_unavailable')
    // Plain Korean words name the fix; "자세히" says what to do meanwhile, in Korean too
    // (the keychain's own English text goes to the log, not to a Korean window).
    await expect(banner.locator('strong')).toContainText('GNOME Keyring·KWallet')
    const details = banner.getByTestId('tech-details')
    await expect(details.locator('pre')).toBeHidden()
    await details.getByText('자세히').click()
    await expect(details.locator('pre')).toContainText('"이번 세션만"으로 저장할 수 있습니다')
    await expect(details.locator('pre')).not.toContainText('D-Bus')
    await page.getByTestId('session-only').click()
    const card = page.locator('[data-testid=profile-card]', { hasText: '키체인 없음' })
    await expect(card.getByTestId('credential-state')).toHaveAttribute('data-state', 'session')
    await card.getByRole('button', { name: '연결 테스트' }).click()
    await expect(card.getByTestId('test-result')).toHaveAttribute('data-outcome', 'ok')
  } finally {
    await host.close()
    await core.close()
  }
})

test('the team-server form without a keychain: saved, kept for this session, and "no server answers" at a closed port', async ({
  page,
}) => {
  const absent = new MemoryStore()
  absent.set = () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'))
  const { core, host } = await launch(absent, { teamWorker: sourceThreads().teamWorker })
  // A port nothing listens on.
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise((resolve) => probe.close(resolve))
  try {
    await page.goto(host.url)
    await addSecondProfile(page, '팀 키체인 없음')
    await page.getByTestId('secret-form').getByTestId('session-only').click()
    const card = page.locator('[data-testid=profile-card]', { hasText: '팀 키체인 없음' })
    await card.getByRole('button', { name: '이 계정 사용' }).click()
    await expect(card.getByText('사용 중')).toBeVisible()
    await card.getByTestId('team-connect').click()
    const form = card.getByTestId('team-form')
    await form.locator('input[name=teamHost]').fill('127.0.0.1')
    await form.locator('input[name=teamPort]').fill(String(port))
    await form.locator('input[name=teamDatabase]').fill('team')
    await form.locator('input[name=teamRole]').fill('minji')
    await form.locator('input[name=teamPassword]').fill('team-pw')
    await form.getByTestId('team-tls').selectOption('plain')
    await form.getByTestId('team-save').click()
    // The server is saved: no keychain error, but the offer to keep the password for this session.
    const kept = form.getByTestId('team-saved-no-keychain')
    await expect(kept).toContainText('팀 서버를 저장했습니다')
    await expect(form.getByTestId('error-banner')).toHaveCount(0)
    await form.screenshot({ path: 'test-results/team-form-no-keychain.png' })
    await kept.getByTestId('team-session-only').click()
    await expect(form).toHaveCount(0)
    await expect(card.getByTestId('team-address')).toContainText(`127.0.0.1:${port}/team`)
    // The status bar and the form's test say nothing answers there, not that the password is wrong.
    const said = `127.0.0.1:${port}에서 응답하는 서버가 없습니다`
    await expect(page.getByTestId('status-team-error')).toContainText(said, { timeout: 15_000 })
    await card.getByTestId('team-test').click()
    const result = card.getByTestId('team-test-result')
    await expect(result).toHaveAttribute('data-code', 'team_unreachable')
    await expect(result.locator('strong')).toHaveText(said + '.')
    await expect(result).not.toContainText('비밀번호를 거부')
    await page.screenshot({ path: 'test-results/team-no-server.png' })
  } finally {
    await host.close()
    await core.close()
  }
})

test('a name with a right-to-left override gets a field error next to the name and nothing is saved', async ({
  page,
}) => {
  const { core, host } = await launch(new MemoryStore())
  try {
    await page.goto(host.url)
    await page.getByRole('link', { name: '계정', exact: true }).click()
    await page.getByRole('button', { name: '계정 추가' }).click()
    const form = page.getByTestId('profile-form')
    const name = form.locator('input[name=name]')
    await name.fill('Shop\u202Egpj.exe')
    await form.locator('input[name=partnerId]').fill(second.partnerId)
    await form.locator('input[name=baseUrl]').fill(second.baseUrl)
    await form.locator('input[name=staticUrl]').fill(second.staticUrl)
    await form.locator('input[name=redirectUri]').fill('https://shop.example.com/wallet/done')
    const error = form
      .locator('label', { has: page.locator('input[name=name]') })
      .getByTestId('field-error')
    const save = form.getByRole('button', { name: '저장' })
    await save.click()
    await expect(error).toHaveText('글자 방향을 바꾸는 제어 문자(U+202E 등)는 쓸 수 없습니다.')
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    await expect(page.getByTestId('secret-form')).toHaveCount(0)
    if (process.env['SCREENSHOT_DIR']) {
      await form.screenshot({ path: join(process.env['SCREENSHOT_DIR'], 'name-error.png') })
    }
    const list = await core.router.dispatch('profiles.list', {})
    const names = list.ok ? (list.value as ProfileList).profiles.map((p) => p.name) : []
    expect(names).toEqual(['Sandbox'])

    await name.fill('Shop\u0000A')
    await save.click()
    await expect(error).toHaveText('제어 문자(NUL, 탭, 줄바꿈 등)는 쓸 수 없습니다.')
    await name.fill('청담 본점')
    await save.click()
    await expect(error).toHaveCount(0)
    await expect(page.getByTestId('secret-form')).toBeVisible()
  } finally {
    await host.close()
    await core.close()
  }
})
