import { test, expect, screenUrl } from './fixtures'

test.describe('brand list', () => {
  test('shows the sandbox brands and filters them in Korean, by initial consonants and in English', async ({
    page,
    app,
  }) => {
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
        errors.push(message.text())
    })
    await page.goto(screenUrl(app.host.url, 'brands'))

    await expect(page.getByRole('heading', { name: '럭셔리 브랜드' })).toBeVisible()
    // The token left the address bar; the screen stayed.
    expect(new URL(page.url()).hash).toBe('#brands')
    // The list may still be on its way ("not loaded yet" while a sync runs): allow for a loaded machine.
    await expect(page.getByTestId('brand-row').first()).toBeVisible({ timeout: 20_000 })
    const all = await page.getByTestId('brand-row').count()
    expect(all).toBeGreaterThan(50)
    await expect(page.getByTestId('brand-count')).toHaveText(`전체 ${all}개`)

    const search = page.getByRole('searchbox', { name: '브랜드 검색' })
    await search.fill('샤넬')
    await expect(page.getByTestId('brand-row')).toHaveCount(2)
    await expect(page.getByTestId('brand-row').first()).toContainText('CHANEL')
    await expect(page.getByTestId('brand-count')).toHaveText(`전체 ${all}개 중 2개`)
    await expect(page.getByTestId('brand-row').first()).toContainText('동명 2')
    await page.screenshot({ path: 'test-results/brands-search-ko.png' })

    await search.fill('chanel')
    await expect(page.getByTestId('brand-row')).toHaveCount(2)
    await expect(page.getByTestId('brand-row').nth(1)).toContainText('CHANEL BEAUTE')

    await search.fill('ㄹㅇㅂㅌ')
    await expect(page.getByTestId('brand-row')).toHaveCount(1)
    await expect(page.getByTestId('brand-row')).toContainText('루이비통')

    await search.fill('없는브랜드')
    await expect(page.getByText('‘없는브랜드’와 일치하는 브랜드가 없습니다.')).toBeVisible()

    expect(errors).toEqual([])
  })

  test('switches to English and back', async ({ page, app }) => {
    await page.goto(app.host.url)
    await page.getByRole('link', { name: '브랜드' }).click()
    await page.getByRole('button', { name: 'English' }).click()
    await expect(page.getByRole('heading', { name: 'Luxury brands' })).toBeVisible()
    await page.getByRole('button', { name: '한국어' }).click()
    await expect(page.getByRole('heading', { name: '럭셔리 브랜드' })).toBeVisible()
  })

  test('a page on another local origin cannot call the web host (docs/faults.md F44, F46)', async ({
    page,
    app,
  }) => {
    const { createServer } = await import('node:http')
    const other = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' })
      res.end('<!doctype html><title>other</title>')
    })
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve))
    const port = (other.address() as { port: number }).port
    const refreshes: string[] = []
    const unsubscribe = app.core.events.subscribe((event) => refreshes.push(event))
    try {
      await page.goto(`http://127.0.0.1:${port}/`)
      const outcome = await page.evaluate(
        async ({ target, token }) => {
          const results: string[] = []
          const attempts: RequestInit[] = [
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-app-token': token },
              body: '{}',
            },
            {
              method: 'POST',
              headers: { 'content-type': 'text/plain' },
              body: '{}',
              mode: 'no-cors',
            },
          ]
          for (const init of attempts) {
            try {
              const response = await fetch(`${target}/ipc/brands.refresh`, init)
              results.push(`status ${response.status}`)
            } catch {
              results.push('blocked')
            }
          }
          return results
        },
        { target: `http://127.0.0.1:${app.host.port}`, token: app.host.token },
      )
      // The JSON call dies on the refused preflight; the no-cors one is refused by the host
      // (415, no token) and its opaque answer is blocked by Cross-Origin-Resource-Policy.
      expect(outcome).toEqual(['blocked', 'blocked'])
      // And no refresh ran: the host did nothing on the foreign page's behalf.
      expect(refreshes).toEqual([])
    } finally {
      unsubscribe()
      other.close()
    }
  })
})
