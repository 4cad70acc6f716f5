import type { Page } from '@playwright/test'
import { test, expect } from './fixtures'

/**
 * Wallet-link flows end to end through the web host: the real renderer, the
 * real core and its state machine, and the sandbox's wallet pages in a
 * browser popup. Screenshots of each outcome go to /tmp for a person to look at.
 */

const SHOTS = process.env['WALLET_SCREENSHOTS'] ?? '/tmp'

async function openWallet(page: Page, url: string): Promise<void> {
  await page.goto(url)
  await page.getByRole('link', { name: '지갑 연동' }).click()
  await expect(page.getByRole('heading', { name: '지갑 연동', level: 1 })).toBeVisible()
}

async function preSync(page: Page, member: string): Promise<Page> {
  const form = page.getByTestId('wallet-presync-form')
  await form.getByLabel('회원 ID (refUserId)').fill(member)
  const popup = page.waitForEvent('popup')
  await form.getByRole('button', { name: '지갑 연결 시작' }).click()
  return popup
}

test.describe('wallet link', () => {
  test('a pre-sync completes in the popup; the key never reaches the page', async ({
    page,
    app,
  }) => {
    await openWallet(page, app.host.url)
    // Nothing to export yet: the export buttons wait for a first link.
    await expect(page.getByTestId('wallet-export-xlsx')).toBeDisabled()
    await expect(page.getByTestId('wallet-export-csv')).toBeDisabled()
    // Validation before anything opens.
    await page
      .getByTestId('wallet-presync-form')
      .getByRole('button', { name: '지갑 연결 시작' })
      .click()
    await expect(page.getByText('회원 ID를 입력하세요.')).toBeVisible()

    const popup = await preSync(page, 'member-e2e-1')
    await expect(page.getByTestId('wallet-running')).toContainText('member-e2e-1')
    await popup.getByRole('link', { name: /완료/ }).click()
    const outcome = page.getByTestId('wallet-outcome')
    await expect(outcome).toHaveAttribute('data-outcome', 'completed')
    await expect(outcome).toContainText('지갑 연동이 완료되었습니다.')
    await expect.poll(() => popup.isClosed()).toBe(true)
    await expect(page.getByTestId('wallet-history-row').first()).toHaveAttribute(
      'data-outcome',
      'completed',
    )
    await expect(page.getByTestId('wallet-export-xlsx')).toBeEnabled()
    await page.screenshot({ path: `${SHOTS}/wallet-completed-presync.png`, fullPage: true })
    const html = await page.content()
    expect(html).not.toContain(app.core.sandbox.apiKey)
  })

  test('a sync from a guarantee’s detail asks for the token, then completes', async ({
    page,
    app,
  }) => {
    const { dataset } = app.core.sandbox
    let index = dataset.size - 1
    while (dataset.guarantee(index).refUserId === undefined) index -= 1
    const guarantee = dataset.guarantee(index)
    await page.goto(app.host.url)
    await page.getByRole('link', { name: '보증서' }).click()
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
    await expect(page.getByTestId('guarantee-row').first()).toBeVisible()
    await page.getByRole('searchbox').fill(String(guarantee.idx))
    const row = page.getByTestId('guarantee-row').filter({ hasText: guarantee.productName })
    await row.first().click()
    const actions = page.getByTestId('wallet-actions')
    await actions.getByRole('button', { name: '지갑 연동' }).click()
    // The sandbox's list carries no token: the detail asks for it.
    const token = actions.getByLabel('보증서 토큰 (guaranteeToken)')
    await expect(token).toBeVisible()
    await page.screenshot({ path: `${SHOTS}/wallet-token-asked.png` })
    await token.fill(app.core.sandbox.tokenFor(guarantee.idx))
    const popup = page.waitForEvent('popup')
    await actions.getByRole('button', { name: '지갑 연동' }).click()
    const window = await popup
    await expect(window.getByText(`#${guarantee.idx}`)).toBeVisible()
    await window.getByRole('link', { name: /완료/ }).click()
    await expect(actions.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'completed')
    await page.screenshot({ path: `${SHOTS}/wallet-completed-sync.png` })
    await page.keyboard.press('Escape')
    await page.getByRole('link', { name: '지갑 연동' }).click()
    await expect(page.getByTestId('wallet-history-row').first()).toContainText(
      String(guarantee.idx),
    )
  })

  test('closing the app’s tab during a flow cancels it; a new page shows it cancelled', async ({
    page,
    app,
  }) => {
    await openWallet(page, app.host.url)
    const popup = await preSync(page, 'member-e2e-tab-closed')
    await expect(popup.getByRole('link', { name: /완료/ })).toBeVisible()
    await expect(page.getByTestId('wallet-running')).toContainText('member-e2e-tab-closed')
    const started = Date.now()
    await page.close({ runBeforeUnload: true })
    // The page's pagehide cancelled it at once (well before the ten-minute timeout, and
    // before core's own grace for a page that is gone).
    await expect.poll(() => app.core.wallet.running(), { timeout: 10_000 }).toBeNull()
    expect(Date.now() - started).toBeLessThan(10_000)
    await expect.poll(() => popup.isClosed()).toBe(true)
    const next = await page.context().newPage()
    await openWallet(next, app.host.url)
    await expect(next.getByTestId('wallet-running')).toHaveCount(0)
    const row = next.getByTestId('wallet-history-row').filter({ hasText: 'member-e2e-tab-closed' })
    await expect(row).toHaveAttribute('data-outcome', 'cancelled')
    await expect(row).toContainText('연동 창이 닫혔습니다')
    await next.screenshot({ path: `${SHOTS}/wallet-tab-closed.png`, fullPage: true })
  })

  test('closing the popup cancels; a foreign redirect is blocked; an HTTP error fails', async ({
    page,
    app,
  }) => {
    await openWallet(page, app.host.url)
    const outcome = page.getByTestId('wallet-outcome')

    const closing = await preSync(page, 'member-e2e-close')
    await expect(closing.getByRole('link', { name: /완료/ })).toBeVisible()
    await closing.close()
    await expect(outcome).toHaveAttribute('data-outcome', 'cancelled')
    await expect(outcome).toContainText('연동 창이 닫혔습니다.')
    await page.screenshot({ path: `${SHOTS}/wallet-cancelled.png`, fullPage: true })

    await preSync(page, 'foreign-e2e')
    await expect(outcome).toHaveAttribute('data-outcome', 'blocked')
    await expect(outcome).toContainText('https://wallet-partner.invalid')
    await page.screenshot({ path: `${SHOTS}/wallet-blocked.png`, fullPage: true })

    await preSync(page, 'error-e2e')
    await expect(outcome).toHaveAttribute('data-outcome', 'failed')
    await expect(outcome).toContainText('HTTP 503')
    await page.screenshot({ path: `${SHOTS}/wallet-failed.png`, fullPage: true })

    // The history shows each, and filters by outcome.
    const rows = page.getByTestId('wallet-history-row')
    await expect(rows.filter({ hasText: 'member-e2e-close' })).toHaveAttribute(
      'data-outcome',
      'cancelled',
    )
    await expect(rows.filter({ hasText: 'foreign-e2e' })).toHaveAttribute('data-outcome', 'blocked')
    await expect(rows.filter({ hasText: 'error-e2e' })).toHaveAttribute('data-outcome', 'failed')
    await page.getByLabel('결과').selectOption('blocked')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText('foreign-e2e')

    const download = page.waitForEvent('download')
    await page.getByRole('button', { name: 'CSV 내보내기' }).click()
    const file = await download
    expect(file.suggestedFilename()).toMatch(/^wallet-history-sandbox-.*\.csv$/)
    await page.getByLabel('결과').selectOption('')
    await page.getByRole('button', { name: 'English' }).click()
    await page.screenshot({ path: `${SHOTS}/wallet-history-en.png`, fullPage: true })
  })

  test('a production account asks before opening anything', async ({ page, app }) => {
    const call = async (channel: string, args: Record<string, unknown>) => {
      const result = await app.core.router.dispatch(channel, args)
      if (!result.ok) throw new Error(result.error.message)
      return result.value as { id: string }
    }
    const saved = await call('profiles.save', {
      name: '운영 매장',
      baseUrl: app.core.sandbox.baseUrl,
      staticUrl: app.core.sandbox.staticUrl,
      partnerId: app.core.sandbox.partnerId,
      redirectUri: 'https://shop.example.com/wallet/done',
      kind: 'production',
    })
    await call('profiles.setSecret', {
      id: saved.id,
      apiKey: app.core.sandbox.apiKey,
      apiSecret: app.core.sandbox.apiSecret,
      sessionOnly: true,
    })
    await call('profiles.select', { id: saved.id })
    await openWallet(page, app.host.url)
    const form = page.getByTestId('wallet-presync-form')
    await form.getByLabel('회원 ID (refUserId)').fill('member-prod')
    await form.getByRole('button', { name: '지갑 연결 시작' }).click()
    const dialog = page.getByTestId('wallet-confirm')
    await expect(dialog).toContainText('운영 계정입니다')
    await expect(dialog).toContainText('member-prod')
    await page.screenshot({ path: `${SHOTS}/wallet-confirm.png` })
    await dialog.getByRole('button', { name: '돌아가기' }).click()
    await expect(dialog).toBeHidden()
    await expect(page.getByTestId('wallet-running')).toHaveCount(0)

    await form.getByRole('button', { name: '지갑 연결 시작' }).click()
    const popup = page.waitForEvent('popup')
    await dialog.getByRole('button', { name: '계속' }).click()
    const window = await popup
    await expect(page.getByTestId('wallet-running')).toContainText('member-prod')
    await window.close()
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'cancelled')
  })
})
