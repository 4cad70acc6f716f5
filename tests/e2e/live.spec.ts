import type { Page } from '@playwright/test'
import type { SandboxChange } from '../../src/sandbox/churn'
import { clockText } from '../../src/renderer/src/lib/live-text'
import { DEFAULT_TIME_ZONE } from '../../src/shared/profiles'
import type { PostedNotification } from '../../src/shared/notifications'
import { call, expect, screenUrl, startApp, type RunningApp, testWithApp } from './fixtures'

/**
 * The live schedule as staff see it, on the web host with the sandbox
 * moving and a poll every second and a half (core's test-only interval):
 * the status bar's next check, pause and resume; the schedule's and the
 * notifications' settings; new records reaching an open list and the
 * Changes badge without a click while the list keeps its scroll and
 * selection; a `가품` result posted as a browser notification (the page's
 * `Notification` calls recorded by an init script, the permission granted)
 * whose click opens the record. Screenshots go to test-results/.
 */

const test = testWithApp(async () => {
  const app = await startApp({
    sandbox: { size: 300 },
    autoSync: true,
    live: { intervalMs: 1500 },
  })
  await app.core.sync.idle()
  return app
})

test.describe.configure({ mode: 'serial' })

/** Records the page's notifications: each `new Notification(title, options)` and the object made. */
const RECORD_NOTIFICATIONS = (): void => {
  const Real = window.Notification
  const made: { title: string; body: string; note: Notification }[] = []
  Object.assign(window, { madeNotifications: made })
  window.Notification = new Proxy(Real, {
    construct(target, args: [string, NotificationOptions?]) {
      const note = new target(...args)
      made.push({ title: args[0], body: args[1]?.body ?? '', note })
      return note
    },
  })
}

async function madeNotifications(page: Page): Promise<{ title: string; body: string }[]> {
  return page.evaluate(() =>
    (
      window as unknown as { madeNotifications: { title: string; body: string }[] }
    ).madeNotifications.map(({ title, body }) => ({ title, body })),
  )
}

test('the status bar shows the next check, pauses for an hour and resumes', async ({
  page,
  app,
}) => {
  await page.goto(screenUrl(app.host.url, 'dashboard'))
  const live = page.getByTestId('status-live')
  await expect(live).toHaveAttribute('data-state', /next|checking/u)
  await expect(live).toContainText(/다음 확인 \d{2}:\d{2}|새 자료 확인 중/u)
  await page.getByTestId('live-pause').click()
  await expect(page.getByRole('menuitem')).toHaveText(['1시간 동안', '내일까지'])
  await page.screenshot({ path: 'test-results/live-pause-menu.png' })
  await page.getByTestId('live-pause-hour').click()
  await expect(live).toHaveAttribute('data-state', 'paused')
  const status = await call(app, 'live.status')
  expect(status.state).toBe('paused')
  const minutes = (Date.parse(status.pausedUntil ?? '') - Date.now()) / 60_000
  expect(minutes).toBeGreaterThan(58)
  expect(minutes).toBeLessThanOrEqual(60)
  // The time alone, or with its date when the hour ends after midnight in the service's zone.
  const shown = clockText(status.pausedUntil ?? '', Date.now(), DEFAULT_TIME_ZONE)
  expect(shown).toMatch(/^(\d{4}-\d{2}-\d{2} )?\d{2}:\d{2}$/u)
  await expect(live).toContainText(`자동 동기화 일시 중지: ${shown}까지`)
  await page.screenshot({ path: 'test-results/live-paused.png' })
  await page.getByTestId('live-resume').click()
  await expect(live).toHaveAttribute('data-state', /next|checking/u)
  expect((await call(app, 'live.status')).pausedUntil).toBeNull()

  // Until tomorrow: midnight in the profile's zone; in English.
  await page.getByTestId('live-pause').click()
  await page.getByTestId('live-pause-tomorrow').click()
  await expect(live).toHaveAttribute('data-state', 'paused')
  const until = (await call(app, 'live.status')).pausedUntil ?? ''
  expect(new Date(until).toLocaleString('sv-SE', { timeZone: 'Asia/Seoul' }).slice(11, 16)).toBe(
    '00:00',
  )
  await call(app, 'settings.set', { language: 'en' })
  await page.reload()
  await expect(live).toContainText(/Auto sync paused until (\d{4}-\d{2}-\d{2} )?00:00/u)
  await expect(page.getByTestId('live-resume')).toHaveText('Resume')
  await page.screenshot({ path: 'test-results/live-paused-en.png' })
  await page.getByTestId('live-resume').click()
  await expect(live).toHaveAttribute('data-state', /next|checking/u)
})

test('settings: the poll interval and window, notifications on and off, quiet hours', async ({
  page,
  app,
  context,
}) => {
  await context.grantPermissions(['notifications'])
  await page.goto(screenUrl(app.host.url, 'settings'))
  const interval = page.getByTestId('live-interval')
  await expect(interval).toHaveValue('2')
  await expect(page.getByTestId('live-window')).toHaveValue('30')
  // Bad input: a clear error, nothing saved.
  await interval.fill('0')
  await page.getByTestId('live-save').click()
  await expect(page.locator('#live-interval-error')).toContainText('1부터 60까지')
  expect((await call(app, 'settings.get')).live.intervalMinutes).toBe(2)
  await interval.fill('5')
  await page.getByTestId('live-save').click()
  await expect(page.getByTestId('live-settings').getByRole('status')).toHaveText('저장했습니다.')
  expect((await call(app, 'settings.get')).live.intervalMinutes).toBe(5)
  expect((await call(app, 'live.status')).intervalMinutes).toBe(5)

  // The defaults a shop would choose, then each switch saves at once.
  await expect(page.getByTestId('notify-enabled')).toBeChecked()
  await expect(page.getByTestId('notify-kind-resultFlagged')).toBeChecked()
  await expect(page.getByTestId('notify-kind-agingDigest')).not.toBeChecked()
  await expect(page.getByTestId('notify-details')).toBeChecked()
  await page.getByTestId('notify-kind-guaranteeCancelled').uncheck()
  await page.getByTestId('notify-counts').check()
  await page.getByTestId('notify-quiet').check()
  await page.getByTestId('notify-quiet-from').fill('21:30')
  await page.getByTestId('notify-quiet-to').fill('07:00')
  await page.getByTestId('notify-times-save').click()
  await expect(page.getByTestId('notify-times').getByRole('status')).toHaveText('저장했습니다.')
  let notifications = (await call(app, 'settings.get')).notifications
  expect(notifications.kinds['guaranteeCancelled']).toBe(false)
  expect(notifications.details).toBe(false)
  expect(notifications.quietHours).toEqual({ from: '21:30', to: '07:00' })
  await page.screenshot({ path: 'test-results/live-settings.png', fullPage: true })
  await page.getByTestId('notify-enabled').uncheck()
  await expect.poll(async () => (await call(app, 'settings.get')).notifications.enabled).toBe(false)
  await page.getByTestId('notify-enabled').check()
  await expect.poll(async () => (await call(app, 'settings.get')).notifications.enabled).toBe(true)
  // Permission granted: no warning.
  await expect(page.getByTestId('notify-permission')).toHaveCount(0)

  // Back to the defaults for the tests after this one.
  await call(app, 'settings.set', {
    live: { intervalMinutes: 2 },
    notifications: { kinds: { guaranteeCancelled: true }, details: true, quietHours: null },
  })
  notifications = (await call(app, 'settings.get')).notifications
  expect(notifications.details).toBe(true)
})

test('settings: keeping every account current is a switch that persists after a reload', async ({
  page,
  app,
}) => {
  // A second account on the same service, its key stored: a sync could run with it.
  const sandbox = app.core.sandbox
  const { id } = await call(app, 'profiles.save', {
    name: '상점 B',
    baseUrl: sandbox.baseUrl,
    staticUrl: sandbox.staticUrl,
    partnerId: sandbox.partnerId,
    redirectUri: 'https://shop.example.com/done',
  })
  await call(app, 'profiles.setSecret', {
    id,
    apiKey: sandbox.apiKey,
    apiSecret: sandbox.apiSecret,
  })
  try {
    await page.goto(screenUrl(app.host.url, 'settings'))
    const allAccounts = page.getByTestId('live-all-accounts')
    await expect(allAccounts).not.toBeChecked()
    await expect(page.locator('#live-all-accounts-hint')).toContainText('계정 수만큼 요청이')
    await expect(page.getByTestId('status-accounts')).toHaveCount(0)
    await allAccounts.check()
    await expect.poll(async () => (await call(app, 'settings.get')).live.allAccounts).toBe(true)
    // The status bar says that the other account is kept current.
    await expect(page.getByTestId('status-accounts')).toHaveText('다른 계정 1개 최신 유지')
    await page.reload()
    await expect(page.getByTestId('live-all-accounts')).toBeChecked()
    await expect(page.getByTestId('status-accounts')).toHaveText('다른 계정 1개 최신 유지')
    await page.screenshot({ path: 'test-results/live-all-accounts.png', fullPage: true })
    await page
      .getByTestId('live-settings')
      .screenshot({ path: 'test-results/live-all-accounts-setting.png' })
    await page.getByTestId('live-all-accounts').uncheck()
    await expect.poll(async () => (await call(app, 'settings.get')).live.allAccounts).toBe(false)
    await expect(page.getByTestId('status-accounts')).toHaveCount(0)
  } finally {
    // Back as it was for the tests after this one.
    await call(app, 'settings.set', { live: { allAccounts: false } })
    await call(app, 'profiles.remove', { id, deleteCache: true })
  }
})

/** Takes sandbox steps until `wanted` accepts one of the changes; answers all the changes. */
function advanceUntil(
  app: RunningApp,
  wanted: (change: SandboxChange) => boolean,
  most = 400,
): SandboxChange[] {
  const changes: SandboxChange[] = []
  for (let k = 0; k < most; k += 1) {
    const step = app.core.sandbox.advance(1)
    changes.push(...step)
    if (step.some(wanted)) return changes
  }
  throw new Error(`no such change in ${most} steps`)
}

test('new records reach an open list and the Changes badge without a click; scroll and selection stay', async ({
  page,
  app,
}) => {
  test.setTimeout(60_000)
  await page.goto(screenUrl(app.host.url, 'inspections'))
  const grid = page.getByRole('grid')
  // The grid's total is written once its first page answers.
  await expect.poll(async () => Number(await grid.getAttribute('data-total'))).toBeGreaterThan(100)
  const total = Number(await grid.getAttribute('data-total'))
  const badge = page.getByTestId('nav-badge-changes')
  const badgeBefore = Number((await badge.textContent())?.replace(/\D/gu, '') || '0')
  // Scroll down some, and select a row in view.
  const scroller = page.locator('.window-scroller')
  await scroller.evaluate((element) => (element.scrollTop = 400))
  // The scroll is painted on its event, a moment later: until then the rows of the top are still
  // in the DOM, and one picked from them leaves it when the grid catches up.
  const firstRow = page.getByTestId('inspection-row').first()
  await expect
    .poll(async () => Number(await firstRow.getAttribute('aria-rowindex')))
    .toBeGreaterThan(2)
  // The grid reuses its row elements as it scrolls: the row is clicked by its record, not its place.
  const selectedIdx = await page.getByTestId('inspection-row').nth(4).getAttribute('data-idx')
  await page.locator(`[data-testid="inspection-row"][data-idx="${selectedIdx}"]`).click()
  await expect(
    page.locator(`[data-testid="inspection-row"][aria-selected="true"]`),
  ).toHaveAttribute('data-idx', selectedIdx ?? '')
  const scrollBefore = await scroller.evaluate((element) => element.scrollTop)

  const changes = advanceUntil(app, (c) => c.kind === 'new' && c.resource === 'inspection')
  const arrived = changes.filter((c) => c.kind === 'new' && c.resource === 'inspection').length
  await expect(grid).toHaveAttribute('data-total', String(total + arrived), { timeout: 10_000 })
  await expect(badge).not.toHaveText(String(badgeBefore), { timeout: 10_000 })
  expect(Number((await badge.textContent())?.replace(/\D/gu, ''))).toBeGreaterThan(badgeBefore)
  // The list kept where the user was and what they had selected.
  await expect(
    page.locator(`[data-testid="inspection-row"][aria-selected="true"]`),
  ).toHaveAttribute('data-idx', selectedIdx ?? '')
  expect(await scroller.evaluate((element) => element.scrollTop)).toBe(scrollBefore)
  await expect(page.getByTestId('detail-panel')).toBeVisible()
  await page.screenshot({ path: 'test-results/live-list-followed.png' })
})

test('a 가품 result is posted as a browser notification; its click opens the record', async ({
  page,
  app,
  context,
}) => {
  test.setTimeout(120_000)
  await context.grantPermissions(['notifications'])
  await page.addInitScript(RECORD_NOTIFICATIONS)
  await page.goto(screenUrl(app.host.url, 'dashboard'))
  await expect(page.getByTestId('status-live')).toBeVisible()
  // Staff look elsewhere: the window loses focus.
  await page.evaluate(() => window.dispatchEvent(new Event('blur')))

  // The sandbox moves a little at a time, each step read by a poll, until a result comes back
  // counterfeit on a record the poll's page holds.
  const posted: PostedNotification[] = []
  const off = app.core.events.subscribe((event, payload) => {
    if (event === 'notification.posted') posted.push(payload as PostedNotification)
  })
  await expect(async () => {
    const before = (await call(app, 'live.status')).lastOutcome?.at
    app.core.sandbox.advance(2)
    await expect
      .poll(async () => (await call(app, 'live.status')).lastOutcome?.at, { timeout: 5000 })
      .not.toBe(before)
    await app.core.sync.idle()
    expect(posted.map((n) => n.kind)).toContain('resultFlagged')
  }).toPass({ timeout: 50_000, intervals: [0] })
  off()
  const flaggedPost = posted.find((n) => n.kind === 'resultFlagged')
  await expect
    .poll(() => madeNotifications(page), { timeout: 5000 })
    .toContainEqual(expect.objectContaining({ title: expect.stringMatching(/^가품 \d+건$/u) }))
  const made = await madeNotifications(page)
  const note = made.find((n) => n.title.startsWith('가품'))
  expect(note?.body).toMatch(/\S/u)
  // The unseen count in the title while the window is behind.
  await expect(page).toHaveTitle(/^\(\d+\) Appraisal Desk$/u)

  // The click: the window comes to the front and opens what it is about.
  await page.evaluate(() => {
    const list = (
      window as unknown as { madeNotifications: { title: string; note: Notification }[] }
    ).madeNotifications
    list.find((n) => n.title.startsWith('가품'))?.note.dispatchEvent(new Event('click'))
  })
  await expect(page).toHaveTitle('Appraisal Desk')
  const count = Number(/(\d+)건/u.exec(note?.title ?? '')?.[1])
  if (count === 1) {
    const idx = flaggedPost?.records[0]?.idx
    await expect(page.locator('nav a[href="#inspections"]')).toHaveAttribute('aria-current', 'page')
    await expect(page.getByTestId('jump-chip')).toContainText('알림에서 연 필터')
    await expect(page.getByTestId('detail-panel')).toBeVisible()
    await expect(
      page.locator(`[data-testid="inspection-row"][aria-selected="true"]`),
    ).toHaveAttribute('data-idx', String(idx))
  } else {
    await expect(page.locator('nav a[href="#changes"]')).toHaveAttribute('aria-current', 'page')
    await expect(page.getByTestId('changes-only')).toContainText(`${count}건`)
    await expect(
      page.locator('[data-testid="change-entry"][data-notified="true"]'),
    ).not.toHaveCount(0)
  }
  await page.screenshot({ path: 'test-results/live-notification-opened.png' })
})
