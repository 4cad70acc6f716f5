import { dispatch, expect, moveTeamPort, teamPort, test } from './team-fixtures'

/**
 * Two staff machines on one team server (tests/e2e/team-fixtures.ts): a mark
 * made in one page shows in the other without a reload, with who set it and
 * its history; a member who was offline is told whose mark replaced theirs.
 */

test.describe('two staff machines on one team server', () => {
  test('a mark made in one page shows in the other without a reload, with who set it and its history', async ({
    pages,
  }) => {
    const { minji: page, jisoo: other } = pages
    await expect(page.getByTestId('status-team')).toContainText('강남 감정팀')

    const row = page.getByTestId('inspection-row').first()
    const idx = await row.getAttribute('data-idx')
    await row.click()
    await page.getByTestId('review-editor').getByRole('radio', { name: '검토 완료' }).click()
    await page.getByTestId('review-note').fill('스크래치 확인')
    await page.getByTestId('review-save').click()

    // The other page was never reloaded: the mark arrives through the team server.
    const seen = other.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    await expect(seen.getByTestId('review-badge')).toHaveAttribute('data-mark', 'reviewed')
    await expect(seen.getByTestId('review-who')).toHaveText('민지')
    await expect(seen.getByTestId('review-who')).toHaveAttribute('title', '김민지 님이 표시')

    // Its history in the detail pane: who, the mark and the note.
    await seen.click()
    const entry = other.getByTestId('review-history-entry')
    await expect(entry).toHaveCount(2)
    await expect(entry.first()).toContainText('김민지')
    await expect(entry.first()).toContainText('스크래치 확인')

    // The list filtered by who marked: the record is someone else's for 박지수.
    await other.getByTestId('marked-by-filter').selectOption('others')
    await expect(other.getByTestId('inspection-row')).toHaveCount(1)
    await other.getByTestId('marked-by-filter').selectOption('me')
    await expect(other.getByTestId('inspection-row')).toHaveCount(0)
    await other.getByTestId('marked-by-filter').selectOption('role:minji')
    await expect(other.getByTestId('inspection-row')).toHaveCount(1)

    // And back: 박지수 marks it for follow-up; 김민지's page follows.
    await other.getByTestId('inspection-row').first().click()
    await other.getByTestId('review-editor').getByRole('radio', { name: '후속 조치 필요' }).click()
    const mine = page.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    await expect(mine.getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
    await expect(mine.getByTestId('review-who')).toHaveText('지수')
  })

  test('who has a record open shows in the other page, and @ completes a teammate in a note', async ({
    pages,
  }, testInfo) => {
    const { minji: page, jisoo: other } = pages
    const row = page.getByTestId('inspection-row').nth(2)
    const idx = await row.getAttribute('data-idx')
    await row.click()
    await expect(page.getByTestId('review-editor')).toBeVisible()

    // 박지수's page shows 김민지 on that row, the name in the tooltip, without a reload.
    const seen = other.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    const marker = seen.getByTestId('presence-marker')
    await expect(marker).toHaveText('민지')
    await expect(marker.getByRole('img')).toHaveAttribute(
      'title',
      '김민지 님이 이 기록을 보고 있습니다',
    )
    await other.screenshot({ path: testInfo.outputPath('presence-row.png') })

    // Both open it: each detail pane names the other.
    await seen.click()
    await expect(other.getByTestId('presence-detail')).toContainText(
      '김민지 님이 이 기록을 보고 있습니다',
    )
    await expect(page.getByTestId('presence-detail')).toContainText('박지수')

    // @ in the note offers the team's other members; Enter puts the name in.
    const note = other.getByTestId('review-note')
    await note.click()
    await note.pressSequentially('확인 부탁드려요 @김')
    await expect(other.getByTestId('mention-option')).toHaveCount(1)
    await expect(other.getByTestId('mention-option')).toContainText('@김민지')
    await other.screenshot({ path: testInfo.outputPath('presence-detail-mention.png') })
    await note.press('Enter')
    await expect(note).toHaveValue('확인 부탁드려요 @김민지 ')
    await expect(other.getByTestId('mention-list')).toHaveCount(0)

    // 김민지 closes the record: the marker goes from 박지수's list.
    await page.getByRole('button', { name: '닫기' }).click()
    await expect(marker).toHaveCount(0)
    await expect(other.getByTestId('presence-detail')).toHaveCount(0)
  })

  test('Accounts: the team server section tests the connection and names the team', async ({
    page,
    team,
  }) => {
    await page.goto(team.minji.host.url)
    await page.getByRole('link', { name: '계정' }).click()
    const section = page.getByTestId('team-section').first()
    await expect(section.getByTestId('team-address')).toContainText('127.0.0.1:')
    await section.getByTestId('team-test').click()
    const result = section.getByTestId('team-test-result')
    await expect(result).toHaveAttribute('data-code', 'ok')
    await expect(result).toContainText('강남 감정팀')
    await expect(result).toContainText('김민지 (minji)')
  })

  test('a mark changed while this member was offline: a dot in the list, a notice in the pane until dismissed', async ({
    pages,
    team,
  }) => {
    const { minji: page, jisoo: other } = pages
    const idx = await page.getByTestId('inspection-row').nth(2).getAttribute('data-idx')
    const mine = page.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    const theirs = other.locator(`[data-testid=inspection-row][data-idx="${idx}"]`)
    // 박지수 is cut off (a closed port); 김민지 marks the record meanwhile.
    const serverPort = await teamPort(team.jisoo)
    await moveTeamPort(team.jisoo, 1)
    await expect(other.getByTestId('status-team')).toHaveAttribute('data-state', 'offline')
    await mine.click()
    await page.getByTestId('review-editor').getByRole('radio', { name: '검토 완료' }).click()
    // Sent: the server numbers 김민지's mark first.
    await expect
      .poll(async () => {
        const status = await dispatch(team.minji, 'team.status', {})
        return status.state === 'connected' && status.unsent === 0
      })
      .toBe(true)
    // 김민지 goes on to another record (looking at this one would clear what follows).
    await page.getByTestId('inspection-row').nth(4).click()

    // 박지수, offline, marks it too without having seen it: kept and counted as unsent.
    await theirs.click()
    await other.getByTestId('review-editor').getByRole('radio', { name: '후속 조치 필요' }).click()
    await expect(other.getByTestId('status-team')).toContainText('보내지 않은 항목 1개')

    // Back online: the server numbers 박지수's mark last, so it is current, and 김민지 is told.
    await moveTeamPort(team.jisoo, serverPort)
    await expect(other.getByTestId('status-team')).toHaveAttribute('data-state', 'connected')
    await expect(mine.getByTestId('review-badge')).toHaveAttribute('data-mark', 'follow_up')
    await expect(mine.getByTestId('review-changed')).toHaveAttribute(
      'title',
      '자리를 비운 사이 박지수 님이 변경함',
    )
    await mine.click()
    const notice = page.getByTestId('changed-notice')
    await expect(notice).toContainText('자리를 비운 사이 박지수 님이 변경함')
    await expect(page.getByTestId('review-history-entry')).toHaveCount(2)
    // Looking at the record clears the list's dot; the notice stays until dismissed.
    await expect(mine.getByTestId('review-changed')).toHaveCount(0)
    await page.getByTestId('changed-ack').click()
    await expect(notice).toHaveCount(0)
  })

  test('a wallet link one member ran shows in the other’s Wallet history, with who ran it', async ({
    pages,
  }) => {
    const { minji: page, jisoo: other } = pages
    await other.getByRole('link', { name: '지갑 연동' }).click()
    await page.getByRole('link', { name: '지갑 연동' }).click()
    const form = page.getByTestId('wallet-presync-form')
    await form.getByLabel('회원 ID (refUserId)').fill('member-team-1')
    const popup = page.waitForEvent('popup')
    await form.getByRole('button', { name: '지갑 연결 시작' }).click()
    await (await popup).close()
    await expect(page.getByTestId('wallet-outcome')).toHaveAttribute('data-outcome', 'cancelled')

    // 박지수's page was never reloaded: the link arrives through the team server.
    const row = other.getByTestId('wallet-history-row').filter({ hasText: 'member-team-1' })
    await expect(row).toHaveAttribute('data-outcome', 'cancelled')
    await expect(row.getByTestId('wallet-by')).toHaveText('김민지')
  })
})
