import { test, expect } from './fixtures'

/**
 * The address `npm start` opens the browser with carries a one-time code,
 * never the session token (docs/security.md "A hostile local user"): the
 * page exchanges it for the token, leaves nothing of it in the address bar,
 * and the same address opened again gets no session.
 */
test('a one-time code opens the app once, and leaves no code or token in the address', async ({
  page,
  app,
  browser,
}) => {
  const url = app.host.openUrl()
  expect(url).not.toContain(app.host.token)
  await page.goto(url)
  await expect(page.getByRole('link', { name: '대시보드' })).toBeVisible()
  await expect(page.getByTestId('profile-bar')).toHaveAttribute('data-kind', 'sandbox')
  expect(page.url()).not.toContain('code=')
  expect(page.url()).not.toContain(app.host.token)
  // A reload keeps the session (the token stays in this tab's session storage).
  await page.reload()
  await expect(page.getByTestId('profile-bar')).toHaveAttribute('data-kind', 'sandbox')

  // The same address in a fresh browser context: the code is used up, so no call is answered.
  const other = await browser.newContext()
  const second = await other.newPage()
  const refused = second.waitForResponse((response) => response.url().endsWith('/session'))
  await second.goto(url)
  expect((await refused).status()).toBe(401)
  await expect(second.getByTestId('profile-bar')).toHaveCount(0)
  await other.close()
})
