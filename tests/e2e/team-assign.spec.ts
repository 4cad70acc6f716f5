import type { Page } from '@playwright/test'
import { cutsOf } from './cut-text'
import { dispatch, expect, test } from './team-fixtures'

/**
 * Dividing the work between two staff machines on one team server
 * (docs/team.md "Assignment", "My queue"; tests/e2e/team-fixtures.ts): a
 * bulk mark of a selection in one page shows in the other without a
 * reload, an assignment shows in the other's "assigned to" column and in
 * that member's My queue, and Undo in the first page takes both back in
 * both pages.
 */

const row = (page: Page, idx: string) =>
  page.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)

async function idxsAt(page: Page, positions: readonly number[]): Promise<string[]> {
  const rows = page.getByTestId('inspection-row')
  return Promise.all(positions.map(async (n) => (await rows.nth(n).getAttribute('data-idx'))!))
}

async function marksOf(page: Page, idxs: readonly string[]): Promise<(string | null)[]> {
  return Promise.all(
    idxs.map((idx) => row(page, idx).getByTestId('review-badge').getAttribute('data-mark')),
  )
}

/** Selects the rows at `from`…`to` of the page's list with a click and a Shift+click. */
async function selectRange(page: Page, from: number, to: number): Promise<void> {
  const rows = page.getByTestId('inspection-row')
  await rows.nth(from).click()
  await rows.nth(to).click({ modifiers: ['Shift'] })
  await expect(page.getByTestId('selection-count')).toHaveText(`${to - from + 1}건 선택됨`)
}

// Its marks and assignments stay on the server: team.spec.ts counts marks by who set them.
test.use({ teamSet: 'assign' })

test.describe('dividing the work on one team server', () => {
  test('a bulk mark of a selection appears in the other page without a reload; Undo restores both', async ({
    pages,
  }) => {
    const { minji: page, jisoo: other } = pages
    const idxs = await idxsAt(page, [5, 6, 7])
    const before = await marksOf(other, idxs)

    await selectRange(page, 5, 7)
    await page
      .getByTestId('selection-bar')
      .getByRole('button', { name: '후속 조치 필요로 표시' })
      .click()
    await expect(page.getByTestId('review-toast')).toContainText('3건')
    // 박지수's page was never reloaded: the marks arrive through the team server, with who set them.
    for (const idx of idxs) {
      await expect(row(other, idx).getByTestId('review-badge')).toHaveAttribute(
        'data-mark',
        'follow_up',
      )
      await expect(row(other, idx).getByTestId('review-who')).toHaveText('민지')
    }

    await page.getByTestId('review-toast').getByRole('button', { name: '되돌리기' }).click()
    await expect(page.getByTestId('review-toast')).toContainText('되돌림')
    await expect.poll(() => marksOf(page, idxs)).toEqual(before)
    await expect.poll(() => marksOf(other, idxs)).toEqual(before)
  })

  test("an assignment shows in the other page's column and in that member's My queue; Undo takes it back in both", async ({
    pages,
    team,
  }) => {
    const { minji: page, jisoo: other } = pages
    // Both see the column and the filter; nothing here is assigned yet.
    await expect(page.getByRole('columnheader', { name: '담당' })).toBeVisible()
    await expect(other.getByTestId('assignee-filter')).toBeVisible()
    const idxs = await idxsAt(page, [9, 10])
    await dispatch(team.minji, 'assignments.set', {
      resource: 'inspections',
      idxs: idxs.map(Number),
      assignee: null,
    })
    await dispatch(team.minji, 'reviews.setMany', {
      resource: 'inspections',
      idxs: idxs.map(Number),
      mark: 'none',
    })
    for (const idx of idxs)
      await expect(row(other, idx).getByTestId('assignee-cell')).toHaveCount(0)
    const queued = (await dispatch(team.jisoo, 'inspections.query', { assignee: 'me', limit: 1 }))
      .total

    // 김민지 assigns the two to 박지수 from the selection bar's member picker.
    await selectRange(page, 9, 10)
    await page.getByTestId('selection-assign').click()
    const menu = page.getByTestId('selection-assign-list')
    await expect(menu.getByRole('menuitemradio')).toHaveText(['김민지 (나)', '박지수', '담당 해제'])
    await page.screenshot({ path: 'test-results/assign-picker-ko.png' })
    await menu.getByRole('menuitemradio', { name: '박지수' }).click()
    await expect(page.getByTestId('review-toast')).toContainText('2건을 박지수에게 배정함')

    // 박지수's page, never reloaded: the column names her, the filter "나에게" finds them.
    for (const idx of idxs) {
      const cell = row(other, idx).getByTestId('assignee-cell')
      await expect(cell).toHaveAttribute('data-role', 'jisoo')
      await expect(cell).toHaveAttribute('title', '담당: 박지수')
      // The full name, or her initials where the column is tight (the detail pane open).
      await expect(cell.getByTestId('assignee-full')).toHaveText('박지수')
      await expect(cell.getByTestId('assignee-short')).toHaveText('지수')
      await expect(
        cell.getByTestId('assignee-full').or(cell.getByTestId('assignee-short')).first(),
      ).toBeVisible()
    }
    await other.screenshot({ path: 'test-results/assignee-column-ko.png' })
    await other.getByTestId('assignee-filter').selectOption('me')
    await expect(other.getByTestId('inspection-row')).toHaveCount(queued + 2)
    await other.getByTestId('assignee-filter').selectOption('')

    // And in her My queue, with the count in the sidebar.
    await expect(other.getByTestId('nav-badge-queue')).toBeVisible()
    await other.getByRole('link', { name: /내 작업함/ }).click()
    for (const idx of idxs) {
      await expect(other.locator(`[data-testid=queue-row][data-idx="${idx}"]`)).toBeVisible()
    }
    await other.screenshot({ path: 'test-results/my-queue-ko.png' })
    // At 1024×700 no header of the queue is cut, and a cut cell carries its text as a tooltip.
    await other.setViewportSize({ width: 1024, height: 700 })
    const cut = await cutsOf(other)
    expect(cut.checked).toBeGreaterThan(0)
    expect({ headers: cut.headers, cells: cut.cells }).toEqual({ headers: [], cells: [] })
    await other.setViewportSize({ width: 1280, height: 820 })

    // Undo in 김민지's page: unassigned again in both pages, and out of the queue.
    await page.getByTestId('review-toast').getByRole('button', { name: '되돌리기' }).click()
    await expect(page.getByTestId('review-toast')).toContainText('되돌림')
    for (const idx of idxs) {
      await expect(row(page, idx).getByTestId('assignee-cell')).toHaveCount(0)
      await expect(other.locator(`[data-testid=queue-row][data-idx="${idx}"]`)).toHaveCount(0)
    }
  })

  test('My queue: N opens the next record, marking it reviewed drops it, an assignment from the detail pane arrives', async ({
    pages,
    team,
  }) => {
    const { minji: page, jisoo: other } = pages
    // Three records of 박지수's, unmarked; nothing else assigned to her.
    const mine = await dispatch(team.jisoo, 'inspections.query', { assignee: 'me', limit: 500 })
    if (mine.rows.length > 0)
      await dispatch(team.minji, 'assignments.set', {
        resource: 'inspections',
        idxs: mine.rows.map((entry) => entry.idx),
        assignee: null,
      })
    const idxs = await idxsAt(page, [2, 3])
    await dispatch(team.minji, 'reviews.setMany', {
      resource: 'inspections',
      idxs: [...idxs, ...(await idxsAt(page, [4]))].map(Number),
      mark: 'none',
    })
    await dispatch(team.minji, 'assignments.set', {
      resource: 'inspections',
      idxs: idxs.map(Number),
      assignee: 'jisoo',
    })

    // One more from 김민지's detail pane.
    const [third] = await idxsAt(page, [4])
    await row(page, third!).click()
    await page.getByTestId('detail-assign').click()
    await page
      .getByTestId('detail-assign-list')
      .getByRole('menuitemradio', { name: '박지수' })
      .click()
    await expect(page.getByTestId('detail-assignee-name')).toHaveText('박지수')

    await other.getByRole('link', { name: /내 작업함/ }).click()
    await expect(other.getByTestId('queue-count-inspections')).toHaveText('3')
    await expect(other.getByTestId('nav-badge-queue')).toContainText('3')
    const rows = other.getByTestId('queue-row')
    await expect(rows).toHaveCount(3)
    // Oldest first.
    const order = await Promise.all(
      [0, 1, 2].map(async (n) => rows.nth(n).getAttribute('data-idx')),
    )
    const times = await Promise.all(
      order.map(async (idx) => {
        const found = await dispatch(team.jisoo, 'records.locate', {
          resource: 'inspections',
          idx: Number(idx),
        })
        return found!.registeredAt!
      }),
    )
    expect([...times].sort()).toEqual(times)

    // N opens the first (the oldest); r marks it reviewed and it leaves; N opens the next.
    await other.keyboard.press('n')
    await expect(other.locator(`[data-testid=queue-row][data-idx="${order[0]}"]`)).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await expect(other.getByTestId('detail-assignee-name')).toHaveText('박지수 (나)')
    await other.screenshot({ path: 'test-results/my-queue-open-ko.png' })
    await other.getByTestId('review-editor').getByRole('radio', { name: '검토 완료' }).click()
    await expect(rows).toHaveCount(2)
    await expect(other.getByTestId('queue-count-inspections')).toHaveText('2')
    await other.keyboard.press('n')
    await expect(other.locator(`[data-testid=queue-row][data-idx="${order[1]}"]`)).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await other.keyboard.press('n')
    await expect(other.locator(`[data-testid=queue-row][data-idx="${order[2]}"]`)).toHaveAttribute(
      'aria-selected',
      'true',
    )
    // The shortcut help lists the key.
    await other.keyboard.press('?')
    await expect(other.getByTestId('shortcut-help')).toContainText('다음 작업 열기')
  })
})
