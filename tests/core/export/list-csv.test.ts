import { afterEach, describe, expect, it } from 'vitest'
import type { InspectionRow } from '../../../src/shared/lists'
import type { ChannelName } from '../../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../../src/shared/contract'
import type { BootedCore } from '../../support/boot'
import { bootSynced, call as callOn } from '../helpers/core'

let core: BootedCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

async function boot(saveFile?: (name: string, bytes: Uint8Array) => Promise<string | null>) {
  core = await bootSynced({ size: 120, ...(saveFile ? { saveFile } : {}) })
  return core
}

const call = <C extends ChannelName>(
  channel: C,
  args: ChannelArgs<C> | Record<string, unknown>,
): Promise<ChannelResult<C>> => callOn(core!, channel, args)

/** RFC 4180 records of a CSV text (quoted fields may hold commas, quotes and line breaks). */
function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let field = ''
  let record: string[] = []
  let quoted = false
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"'
        i += 1
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === ',') {
      record.push(field)
      field = ''
    } else if (char === '\r' && text[i + 1] === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      i += 1
    } else field += char
  }
  if (field !== '' || record.length > 0) records.push([...record, field])
  return records
}

describe('lists.export', () => {
  it('exports the filtered, sorted list with every field and the review marks, Excel-ready', async () => {
    await boot()
    const page = await call('inspections.query', { status: '배송완료', sort: 'oldest', limit: 500 })
    const first = page.rows[0] as InspectionRow
    await call('reviews.set', {
      resource: 'inspections',
      idx: first.idx,
      mark: 'follow_up',
      note: '박스, "외관" 재확인',
    })

    const answer = await call('lists.export', {
      resource: 'inspections',
      status: '배송완료',
      sort: 'oldest',
      lang: 'ko',
      format: 'csv',
    })
    expect(answer.kind).toBe('download')
    expect(answer.rows).toBe(page.total)
    expect(answer.fileName).toMatch(/^inspections-sandbox-\d{8}-\d{6}\.csv$/)
    const csv = answer.csv!
    expect(csv.startsWith('\uFEFF')).toBe(true)
    // Every line ends CRLF: no bare LF outside a quoted field.
    expect(/[^\r]\n/u.test(csv.replace(/"(?:[^"]|"")*"/gu, ''))).toBe(false)

    const [stamp, header, ...rows] = parseCsv(csv.slice(1))
    expect(stamp![0]).toMatch(
      /^# 감정 내역 · 상태: 배송완료 · 정렬: 오래된순 · 기준 시각 \d{4}-\d{2}-\d{2} \d{2}:\d{2} \(Asia\/Seoul\) · \d+건$/,
    )
    expect(header).toEqual(
      expect.arrayContaining([
        '일련번호',
        '검수번호',
        '상품명',
        '회원 ID',
        '검토 표시',
        '검토 메모',
        '검토자',
      ]),
    )
    expect(rows).toHaveLength(page.total)
    const col = (name: string) => header!.indexOf(name)
    // Same order as the list, Korean intact, marks alongside.
    expect(rows.map((row) => Number(row[col('일련번호')]))).toEqual(page.rows.map((row) => row.idx))
    expect(rows[0]![col('상품명')]).toBe(first.productName)
    expect(rows[0]![col('검토 표시')]).toBe('후속 조치 필요')
    expect(rows[0]![col('검토 메모')]).toBe('박스, "외관" 재확인')
    expect(rows.every((row) => row[col('진행 상태')] === '배송완료')).toBe(true)
  })

  it('English headers; guarantees leave out the wallet token; a review filter narrows the file', async () => {
    await boot()
    const g = (await call('guarantees.query', { limit: 1 })).rows[0]!
    await call('reviews.set', { resource: 'guarantees', idx: g.idx, mark: 'reviewed' })
    const answer = await call('lists.export', {
      resource: 'guarantees',
      review: 'reviewed',
      lang: 'en',
      format: 'csv',
    })
    const [stamp, header, ...rows] = parseCsv(answer.csv!.slice(1))
    expect(stamp![0]).toMatch(
      /^# Guarantees · review: Reviewed · sort: Newest first · as of .* · 1 row$/,
    )
    expect(header).toEqual(
      expect.arrayContaining(['Serial no.', 'Card image', 'Extra 1', 'Review mark']),
    )
    expect(header!.some((h) => /token/iu.test(h))).toBe(false)
    expect(rows).toHaveLength(1)
    expect(rows[0]![header!.indexOf('Review mark')]).toBe('Reviewed')
    // The card URL as the service sent it (the store keeps it without its prefix).
    expect(g.cardUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\S+\.\w+$/u)
    expect(rows[0]![header!.indexOf('Card image')]).toBe(g.cardUrl)
  })

  it('names who marked and who holds the records on the first line, in words', async () => {
    await boot()
    const answer = await call('lists.export', {
      resource: 'inspections',
      markedBy: 'others',
      assignee: 'nobody',
      format: 'csv',
    })
    const [stamp] = parseCsv(answer.csv!.slice(1))
    expect(stamp![0]).toMatch(
      /^# 감정 내역 · 표시한 사람: 다른 팀원 · 담당자: 없음 · 정렬: 최신순 · /u,
    )
    const english = await call('lists.export', {
      resource: 'guarantees',
      markedBy: { role: 'jisoo' },
      assignee: 'me',
      lang: 'en',
      format: 'csv',
    })
    expect(parseCsv(english.csv!.slice(1))[0]![0]).toMatch(
      /^# Guarantees · marked by: jisoo · assignee: me · sort: Newest first · /u,
    )
  })

  it('in the app the file goes through the save dialog; a closed dialog saves nothing', async () => {
    const saved: string[] = []
    let answerWith: string | null = '/home/staff/inspections.csv'
    await boot(async (name, bytes) => {
      saved.push(name)
      expect(new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).startsWith('\uFEFF')).toBe(
        true,
      )
      return answerWith
    })
    const done = await call('lists.export', { resource: 'inspections', format: 'csv' })
    expect(done).toMatchObject({ kind: 'saved', path: '/home/staff/inspections.csv', rows: 120 })
    expect(done.csv).toBeUndefined()
    answerWith = null
    const cancelled = await call('lists.export', { resource: 'inspections', format: 'csv' })
    expect(cancelled.kind).toBe('cancelled')
    expect(saved).toHaveLength(2)
  })

  it('refuses a bad filter with a clear error', async () => {
    await boot()
    for (const args of [
      { resource: 'brands' },
      { resource: 'inspections', from: '2025-13-45' },
      { resource: 'inspections', limit: 10 },
      { resource: 'inspections', lang: 'fr' },
      { resource: 'inspections', format: 'xls' },
    ]) {
      const answer = await core!.router.dispatch('lists.export', args)
      expect(answer.ok ? 'ok' : answer.error.code).toBe('invalid_argument')
    }
  })

  it("carries each record's days in status and takes the aging filter", async () => {
    const day = 86_400_000
    let now = Date.parse('2026-11-01T00:00:00Z')
    core = await bootSynced({ size: 120, now: () => new Date(now) })
    // Nine days after the first sync. Each record holds its status at least since its own last
    // change on the service (docs/store-and-sync.md), so its days count from there.
    now += 9 * day + 60_000
    const daysOf = (rows: readonly { statusSince: string | null }[]) =>
      rows.map((r) => String(Math.floor((now - Date.parse(r.statusSince!)) / day))).sort()
    const aged = await call('inspections.query', { agedDays: 9, limit: 500 })
    expect(aged.total).toBeGreaterThan(0)
    const answer = await call('lists.export', {
      resource: 'inspections',
      agedDays: 9,
      lang: 'en',
      format: 'csv',
    })
    const [stamp, header, ...rows] = parseCsv(answer.csv!.slice(1))
    expect(stamp![0]).toContain('days in status at least: 9')
    expect(rows).toHaveLength(aged.total)
    const days = header!.indexOf('Days in status')
    expect(rows.map((row) => row[days]!).sort()).toEqual(daysOf(aged.rows))
    expect(rows.every((row) => Number(row[days]) >= 9)).toBe(true)
    // A longer threshold takes fewer: those whose days reach it.
    const longer = await call('inspections.query', { agedDays: 400, limit: 500 })
    const fewer = await call('lists.export', {
      resource: 'inspections',
      agedDays: 400,
      lang: 'en',
      format: 'csv',
    })
    expect(fewer.rows).toBe(longer.total)
    expect(fewer.rows).toBeLessThan(aged.total)
    expect(daysOf(longer.rows).every((n) => Number(n) >= 400)).toBe(true)
  })
})
