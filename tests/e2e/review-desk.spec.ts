import type { Page } from '@playwright/test'
import { test, expect, screenUrl } from './fixtures'

/** Waits until the list has answered for its current filters. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByTestId('list')).toHaveAttribute('aria-busy', 'false')
}

async function syncInspections(page: Page, url: string): Promise<void> {
  await page.goto(screenUrl(url, 'inspections'))
  await expect(page.getByRole('heading', { name: '감정 내역' })).toBeVisible()
  const rows = page.getByTestId('inspection-row')
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  await settled(page)
}

/** Opens the guarantees (synced if they are not yet) in the card grid. */
async function openGuaranteeCards(page: Page, url: string) {
  await page.goto(url)
  await page.getByRole('link', { name: '보증서' }).click()
  const rows = page.getByTestId('guarantee-row')
  if ((await rows.count()) === 0) {
    await page.getByTestId('sync-control').getByRole('button', { name: '동기화' }).click()
  }
  await expect(rows.first()).toBeVisible()
  await page.getByTestId('mode-cards').click()
  const tiles = page.getByTestId('card-tile')
  await expect(tiles.first()).toBeVisible()
  return { rows, tiles }
}

test.describe('review desk', () => {
  test('virtualized grid: aria counts, a bounded DOM, and paging to the end without a button', async ({
    page,
    app,
  }) => {
    await syncInspections(page, app.host.url)
    const grid = page.getByRole('grid')
    await expect(grid).toHaveAttribute('aria-rowcount', '501')
    const rendered = await page.getByTestId('inspection-row').count()
    expect(rendered).toBeGreaterThan(5)
    expect(rendered).toBeLessThan(60)
    await expect(page.getByTestId('inspection-row').first()).toHaveAttribute('aria-rowindex', '2')
    await expect(page.getByText('더 보기')).toHaveCount(0)

    // The date column sorts through the store: oldest first, then back.
    const dateHeader = page.getByRole('columnheader', { name: /접수일시/ })
    await expect(dateHeader).toHaveAttribute('aria-sort', 'descending')
    const newest = await page.getByTestId('inspection-row').first().getAttribute('data-idx')
    await dateHeader.getByRole('button').click()
    await expect(dateHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect(page.getByTestId('sort')).toHaveValue('oldest')
    await settled(page)
    await expect(page.getByTestId('inspection-row').first()).not.toHaveAttribute(
      'data-idx',
      newest!,
    )
    await dateHeader.getByRole('button').click()
    await settled(page)
    await expect(page.getByTestId('inspection-row').first()).toHaveAttribute('data-idx', newest!)

    // Scroll to the very end: every page loads on its own and the last row is reachable.
    const scroller = grid.locator('[role=rowgroup]').nth(1).locator('> div')
    await expect
      .poll(async () => {
        await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight))
        return page.getByTestId('row-count').innerText()
      })
      .toBe('500 / 500건')
    await scroller.evaluate((el) => el.scrollTo(0, el.scrollHeight))
    await expect(page.locator('[aria-rowindex="501"]')).toBeVisible()
    expect(await page.getByTestId('inspection-row').count()).toBeLessThan(60)
  })

  test('keyboard: j/k and arrows move, Enter opens, the pane steps and follows, Esc closes, ? helps', async ({
    page,
    app,
  }) => {
    await syncInspections(page, app.host.url)
    const rows = page.getByTestId('inspection-row')
    const first = await rows.nth(0).getAttribute('data-idx')
    const second = await rows.nth(1).getAttribute('data-idx')
    const third = await rows.nth(2).getAttribute('data-idx')

    await page.getByRole('grid').focus()
    await page.keyboard.press('j')
    await expect(page.locator(`[data-idx="${first}"]`)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('ArrowDown')
    await page.keyboard.press('j')
    await expect(page.locator(`[data-idx="${third}"]`)).toHaveAttribute('aria-selected', 'true')
    await page.keyboard.press('k')
    await expect(page.locator(`[data-idx="${second}"]`)).toHaveAttribute('aria-selected', 'true')

    await page.keyboard.press('Enter')
    const panel = page.getByTestId('detail-panel')
    await expect(panel).toBeVisible()
    await expect(panel.getByTestId('detail-position')).toHaveText('2 / 500')
    // The pane sits beside the list: the grid is not covered.
    const gridBox = (await page.getByRole('grid').boundingBox())!
    const panelBox = (await panel.boundingBox())!
    expect(gridBox.x + gridBox.width).toBeLessThanOrEqual(panelBox.x)

    await panel.getByTestId('detail-next').click()
    await expect(panel.getByTestId('detail-position')).toHaveText('3 / 500')
    await page.getByRole('grid').focus()
    await page.keyboard.press('ArrowUp')
    await expect(panel.getByTestId('detail-position')).toHaveText('2 / 500')

    await page.screenshot({ path: 'test-results/review-desk-keyboard.png' })
    await page.keyboard.press('Escape')
    await expect(panel).toBeHidden()

    // `/` goes to the search field, and letters typed there stay in the field.
    await page.keyboard.press('/')
    await expect(page.getByRole('searchbox', { name: '검색' })).toBeFocused()
    await page.keyboard.type('jk')
    await expect(page.getByRole('searchbox', { name: '검색' })).toHaveValue('jk')
    await page.getByRole('searchbox', { name: '검색' }).fill('')
    await page.getByRole('grid').focus()

    await page.keyboard.press('?')
    const help = page.getByTestId('shortcut-help')
    await expect(help).toBeVisible()
    await expect(help).toContainText('검토 완료 표시')
    await page.keyboard.press('Escape')
    await expect(help).toBeHidden()
  })

  test('review marks: r/f from the keyboard, a note, counts and the filter; the pane closes when the filter drops its record', async ({
    page,
    app,
  }) => {
    await syncInspections(page, app.host.url)
    const rows = page.getByTestId('inspection-row')
    const reviewFilter = page.getByTestId('review-filter')
    await expect(reviewFilter.getByRole('tab', { name: /^검토 전체/ })).toContainText('500')

    await page.getByRole('grid').focus()
    await page.keyboard.press('j')
    const firstIdx = await rows.nth(0).getAttribute('data-idx')
    await page.keyboard.press('f')
    await expect(rows.nth(0).getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
    await page.keyboard.press('j')
    await page.keyboard.press('r')
    await expect(rows.nth(1).getByTestId('review-badge')).toHaveAttribute('data-mark', 'reviewed')
    await expect(reviewFilter.getByRole('tab', { name: /^후속 조치 필요/ })).toContainText('1')
    await expect(reviewFilter.getByRole('tab', { name: /^검토 완료/ })).toContainText('1')

    // `n` opens the pane with the cursor in the note; Korean typed there is kept and saved.
    await page.keyboard.press('k')
    await page.keyboard.press('n')
    const note = page.getByTestId('review-note')
    await expect(note).toBeFocused()
    await page.keyboard.type('포장 상태 재확인 필요')
    await page.getByTestId('review-save').click()
    await expect(page.getByTestId('review-save')).toBeDisabled()
    await expect(rows.nth(0).getByTestId('review-badge').getByRole('img')).toBeVisible()
    await expect(page.getByTestId('review-meta')).not.toContainText('아직')

    // Filter to "needs follow-up": only that record; the pane stays on it.
    await reviewFilter.getByRole('tab', { name: /^후속 조치 필요/ }).click()
    await settled(page)
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toHaveAttribute('data-idx', firstIdx!)
    await expect(page.getByTestId('review-note')).toHaveValue('포장 상태 재확인 필요')
    await page.screenshot({ path: 'test-results/review-desk-follow-up.png' })

    // Clearing the mark while filtered removes the record from the list: the pane closes.
    await page.getByTestId('review-editor').getByRole('radio', { name: '표시 없음' }).click()
    await expect(page.getByTestId('detail-panel')).toBeHidden()
    await expect(page.getByText('조건에 맞는 항목이 없습니다.')).toBeVisible()
  })

  test('Korean IME: a composition is never doubled and Enter during it does nothing', async ({
    page,
    app,
  }) => {
    await syncInspections(page, app.host.url)
    const search = page.getByRole('searchbox', { name: '검색' })
    await search.focus()
    // What a Korean IME sends for 샤넬: the last syllable stays composing until committed.
    await search.evaluate((input: HTMLInputElement) => {
      const fire = (type: string, data: string, composing: boolean): void => {
        if (type === 'input') {
          input.value = data
          input.dispatchEvent(
            new InputEvent('input', { data, isComposing: composing, bubbles: true }),
          )
        } else input.dispatchEvent(new CompositionEvent(type, { data, bubbles: true }))
      }
      fire('compositionstart', '', true)
      fire('input', 'ㅅ', true)
      fire('input', '샤', true)
      fire('input', '샤ㄴ', true)
      fire('input', '샤너', true)
      fire('input', '샤넬', true)
      input.dispatchEvent(
        new KeyboardEvent('keydown', {
          key: 'Enter',
          keyCode: 229,
          isComposing: true,
          bubbles: true,
        }),
      )
      fire('compositionend', '넬', false)
    })
    await settled(page)
    await expect(search).toHaveValue('샤넬')
    await expect(page.getByTestId('inspection-row').first()).toContainText('샤넬')
    // The Enter that belonged to the IME did not act: focus stayed, nothing was selected.
    await expect(search).toBeFocused()
    await expect(page.locator('[data-testid=inspection-row][aria-selected=true]')).toHaveCount(0)
    // A real Enter takes the keyboard to the results, first row selected.
    await page.keyboard.press('Enter')
    await expect(page.getByRole('grid')).toBeFocused()
    await expect(page.getByTestId('inspection-row').first()).toHaveAttribute(
      'aria-selected',
      'true',
    )
  })

  test('guarantees: card grid with lazy images, the large viewer steps with arrows and zooms', async ({
    page,
    app,
  }) => {
    const { tiles } = await openGuaranteeCards(page, app.host.url)
    expect(await tiles.count()).toBeLessThan(80)
    await expect(tiles.first().getByTestId('card-image')).toHaveAttribute('data-state', 'loaded')

    await tiles.first().click()
    const firstIdx = await tiles.first().getAttribute('data-idx')
    await expect(page.getByTestId('detail-panel')).toBeVisible()
    await page.screenshot({ path: 'test-results/review-desk-cards.png' })
    await page.getByTestId('open-viewer').click()
    const viewer = page.getByTestId('card-viewer')
    await expect(viewer).toBeVisible()
    await expect(viewer).toHaveAttribute('data-idx', firstIdx!)
    await page.keyboard.press('ArrowRight')
    const secondIdx = await tiles.nth(1).getAttribute('data-idx')
    await expect(viewer).toHaveAttribute('data-idx', secondIdx!)
    await page.keyboard.press('+')
    await expect(viewer).toHaveAttribute('data-zoom', '1.5')
    await expect(viewer.getByTestId('card-image')).toHaveAttribute('data-state', 'loaded')
    await page.screenshot({ path: 'test-results/review-desk-viewer.png' })
    await page.keyboard.press('ArrowLeft')
    await expect(viewer).toHaveAttribute('data-idx', firstIdx!)
    await expect(viewer).toHaveAttribute('data-zoom', '1')
    await page.keyboard.press('Escape')
    await expect(viewer).toBeHidden()
    // Stepping in the viewer moved the list's selection with it.
    await expect(tiles.first()).toHaveAttribute('aria-selected', 'true')
    await page.getByTestId('mode-table').click()
  })

  test('guarantees: in the card grid ↑/↓ and j/k move a whole line of cards, ←/→ one card', async ({
    page,
    app,
  }) => {
    const { rows, tiles } = await openGuaranteeCards(page, app.host.url)
    const idxAt = async (n: number): Promise<string> =>
      (await tiles.nth(n).getAttribute('data-idx'))!
    const selected = page.locator('[data-testid=card-tile][aria-selected=true]')

    await tiles.first().click()
    await expect(selected).toHaveAttribute('data-idx', await idxAt(0))
    // The detail pane opened beside the cards: a line now holds fewer of them.
    await expect(page.getByTestId('detail-panel')).toBeVisible()
    const perLine = Number(await page.getByTestId('card-grid').getAttribute('aria-colcount'))
    expect(perLine).toBeGreaterThan(1)
    await page.keyboard.press('ArrowDown')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(perLine))
    await page.keyboard.press('ArrowRight')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(perLine + 1))
    await page.keyboard.press('ArrowLeft')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(perLine))
    await page.keyboard.press('k')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(0))
    await page.keyboard.press('j')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(perLine))
    await page.keyboard.press('ArrowUp')
    await expect(selected).toHaveAttribute('data-idx', await idxAt(0))

    // The table keeps ↑/↓ to one row and leaves ←/→ alone.
    await page.getByTestId('mode-table').click()
    const selectedRow = page.locator('[data-testid=guarantee-row][aria-selected=true]')
    await expect(selectedRow).toHaveAttribute(
      'data-idx',
      (await rows.nth(0).getAttribute('data-idx'))!,
    )
    await page.getByTestId('grid').focus()
    await page.keyboard.press('ArrowDown')
    await expect(selectedRow).toHaveAttribute(
      'data-idx',
      (await rows.nth(1).getAttribute('data-idx'))!,
    )
    await page.keyboard.press('ArrowRight')
    await expect(selectedRow).toHaveAttribute(
      'data-idx',
      (await rows.nth(1).getAttribute('data-idx'))!,
    )
  })
})
