import { afterEach, describe, expect, it } from 'vitest'
import type { ChannelName } from '../../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../../src/shared/contract'
import type { InspectionRow } from '../../../src/shared/lists'
import type { ExportResult } from '../../../src/shared/export'
import type { BootedCore } from '../../support/boot'
import { bootSynced, call as callOn } from '../helpers/core'
import { readBack, type ReadCell } from '../helpers/xlsx-read'

let core: BootedCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

/** The embedded sandbox's "now": just after its newest record (Seoul noon). */
const NOW = new Date('2026-11-21T03:00:00Z')

async function boot(saveFile?: (name: string, bytes: Uint8Array) => Promise<string | null>) {
  core = await bootSynced({ size: 120, now: () => NOW, ...(saveFile ? { saveFile } : {}) })
}

const call = <C extends ChannelName>(
  channel: C,
  args: ChannelArgs<C> | Record<string, unknown>,
): Promise<ChannelResult<C>> => callOn(core!, channel, args)

/** The downloaded workbook of an answer, read back. */
function workbook(answer: ExportResult) {
  expect(answer).toMatchObject({ kind: 'download', format: 'xlsx' })
  expect(answer.fileName.endsWith('.xlsx')).toBe(true)
  expect(answer.csv).toBeUndefined()
  return readBack(Buffer.from(answer.xlsx!, 'base64'))
}

const COLUMN_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'

/** The cells of a sheet as rows of a table: header row `headerRow`, then its data rows. */
function table(cells: Map<string, ReadCell>, headerRow: number) {
  const header: string[] = []
  for (const letter of COLUMN_LETTERS) {
    const cell = cells.get(`${letter}${headerRow}`)
    if (!cell) break
    header.push(String(cell.value))
  }
  const at = (row: number, name: string): ReadCell | undefined => {
    const column = header.indexOf(name)
    expect(column, name).toBeGreaterThanOrEqual(0)
    return cells.get(`${COLUMN_LETTERS[column]}${headerRow + 1 + row}`)
  }
  return { header, at }
}

/** Excel's serial of a wall-clock time `YYYY-MM-DD HH:MM:SS`. */
const serial = (text: string): number =>
  Date.parse(`${text.replace(' ', 'T')}Z`) / 86_400_000 + 25_569

/** A text cell as Excel reads it: shared text, Text format, never a formula. */
function expectText(cell: ReadCell | undefined, value: string): void {
  expect(cell).toMatchObject({ type: 's', value, format: '@', formula: false })
}

describe('Excel workbook exports', () => {
  it('a list: the CSV columns and headers, identifiers as text, times as date cells, the header frozen', async () => {
    await boot()
    const page = await call('inspections.query', { status: '배송완료', sort: 'oldest', limit: 500 })
    // Notes that look like a number with leading zeros and like a formula stay text.
    const notes = ['0012345', '=HYPERLINK("http://evil.example")']
    for (const [i, note] of notes.entries()) {
      const idx = (page.rows[i] as InspectionRow).idx
      await call('reviews.set', { resource: 'inspections', idx, mark: 'reviewed', note })
    }
    const query = { resource: 'inspections', status: '배송완료', sort: 'oldest', lang: 'ko' }
    const answer = await call('lists.export', query)
    expect(answer.rows).toBe(page.total)
    const { cells, sheet, files } = workbook(answer)
    // The caption, then the header, both frozen.
    expect(String(cells.get('A1')?.value)).toMatch(
      /^# 감정 내역 · 상태: 배송완료 · 정렬: 오래된순 · /u,
    )
    expect(sheet).toMatch(/<pane [^>]*ySplit="2"[^>]*state="frozen"/u)
    expect(sheet).not.toMatch(/<f[\s>]/u)
    expect(Object.keys(files).some((name) => /vbaProject|calcChain/u.test(name))).toBe(false)

    // The same columns, in the same order, as the CSV export of the same filter.
    const csv = await call('lists.export', { ...query, format: 'csv' })
    const csvHeader = csv.csv!.split('\r\n')[1]!.split(',')
    const { header, at } = table(cells, 2)
    expect(header).toEqual(csvHeader)

    page.rows.forEach((row, i) => {
      expectText(at(i, '일련번호'), String(row.idx))
      expectText(at(i, '검수번호'), row.inspectionNum)
      expectText(at(i, '주문번호'), row.refOrderId!)
      expectText(at(i, '상품명'), row.productName)
      const registered = at(i, '등록일시')
      expect(registered).toMatchObject({ type: 'n', format: 'yyyy-mm-dd hh:mm:ss' })
      expect(registered!.value).toBeCloseTo(serial(row.registeredAt!), 6)
    })
    expectText(at(0, '검토 메모'), '0012345')
    expectText(at(1, '검토 메모'), '=HYPERLINK("http://evil.example")')
    // The review time is a date cell in the profile's zone (Seoul), as the screen shows it.
    expect(at(0, '검토 시각')).toMatchObject({ type: 'n', format: 'yyyy-mm-dd hh:mm:ss' })
    expect(at(0, '검토 시각')!.value).toBeCloseTo(serial('2026-11-21 12:00:00'), 6)
  })

  it('the wallet history: member ids as text, start and end as date cells in the profile zone', async () => {
    await boot()
    const started = await call('wallet.start', { flow: 'pre-sync', refUserId: '0012345' })
    await call('wallet.cancel', { flowId: started.flowId, closed: true })
    const answer = await call('wallet.export', { lang: 'en' })
    expect(answer.rows).toBe(1)
    const { cells, sheet } = workbook(answer)
    expect(sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/u)
    const csv = await call('wallet.export', { lang: 'en', format: 'csv' })
    const { header, at } = table(cells, 1)
    expect(header.join(',')).toBe(csv.csv!.slice(1).split('\r\n')[0])
    expectText(at(0, 'Member'), '0012345')
    expectText(at(0, 'Outcome'), 'Cancelled')
    // Started at NOW (03:00 UTC): noon in Seoul.
    expect(at(0, 'Started')).toMatchObject({ type: 'n', value: serial('2026-11-21 12:00:00') })
  })

  it('reconciliation: one line per record, order ids as text, as many as the view counts', async () => {
    await boot()
    const view = await call('reconcile.list', { kind: 'unguaranteed', limit: 500 })
    expect(view.total).toBeGreaterThan(0)
    const answer = await call('reconcile.export', { kind: 'unguaranteed', lang: 'ko' })
    expect(answer.rows).toBe(view.total)
    expect(answer.fileName).toMatch(/^reconcile-unguaranteed-sandbox-2026-11-21\.xlsx$/u)
    const { cells } = workbook(answer)
    const { header, at } = table(cells, 1)
    expect(header).toEqual(['종류', '회원', '주문번호', '주문 상세번호', '목록', '번호'])
    const records = view.rows.flatMap((group) => group.records.map((record) => ({ group, record })))
    records.forEach(({ group, record }, i) => {
      expectText(at(i, '종류'), '보증서 없는 정품')
      expectText(at(i, '주문번호'), group.orderId!)
      expectText(at(i, '주문 상세번호'), group.orderDetailId!)
      expectText(at(i, '번호'), String(record.idx))
    })
  })

  it('in the app a workbook is saved as bytes through the dialog, named .xlsx', async () => {
    const saved: { name: string; bytes: Uint8Array }[] = []
    await boot(async (name, bytes) => {
      saved.push({ name, bytes })
      return `/home/staff/${name}`
    })
    const done = await call('lists.export', { resource: 'guarantees' })
    expect(done).toMatchObject({ kind: 'saved', format: 'xlsx', rows: 120 })
    expect(done.xlsx).toBeUndefined()
    expect(saved[0]!.name).toMatch(/^guarantees-sandbox-\d{8}-\d{6}\.xlsx$/u)
    // A zip whose sheet reads back.
    const { cells } = readBack(Buffer.from(saved[0]!.bytes))
    expect(cells.get('A2')).toMatchObject({ type: 's', value: '일련번호' })
  })
})
