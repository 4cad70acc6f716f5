import { describe, expect, it } from 'vitest'
import { AppError } from '../../../src/core/app-error'
import {
  toXlsx,
  XLSX_MAX_CELL_TEXT,
  XLSX_MAX_CELLS,
  XLSX_MAX_COLUMNS,
  type XlsxColumn,
  type XlsxSheet,
  type XlsxValue,
} from '../../../src/core/export/xlsx'
import { readBack } from '../helpers/xlsx-read'

const COLUMNS: readonly XlsxColumn[] = [
  { header: '주문 ID', type: 'text' },
  { header: '검수번호', type: 'text' },
  { header: '상품명', type: 'text' },
  { header: '수량', type: 'number' },
  { header: '등록 시각', type: 'date' },
]

function book(rows: readonly (readonly XlsxValue[])[], extra: Partial<XlsxSheet> = {}) {
  return toXlsx({ columns: COLUMNS, rows, timeZone: 'Asia/Seoul', ...extra })
}

/** Excel's serial of a wall-clock time: days since 1899-12-30. */
const serial = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0): number =>
  Date.UTC(y, mo - 1, d, h, mi, s) / 86_400_000 + 25_569

describe('Excel workbook export', () => {
  it('writes identifiers and text as text cells, exactly as given', async () => {
    const { cells, sheet } = readBack(
      await book([
        ['0000000000000240', '240002000001', '=HYPERLINK("http://evil.example","클릭")', 3, null],
        ['0012345', 240002000001, '+1 <b>&"\' 명품 가방', 12.5, null],
        ['-0', '@SUM(A1)', ' 앞뒤 공백 ', null, null],
      ]),
    )
    const text = (address: string) => {
      const cell = cells.get(address)
      expect(cell?.type, address).toBe('s')
      expect(cell?.format, address).toBe('@')
      expect(cell?.formula, address).toBe(false)
      return cell?.value
    }
    expect(text('A2')).toBe('0000000000000240')
    expect(text('B2')).toBe('240002000001')
    expect(text('C2')).toBe('=HYPERLINK("http://evil.example","클릭")')
    expect(text('A3')).toBe('0012345')
    // A 12-digit number given as a number to a text column is text too, never 2.40002E+11.
    expect(text('B3')).toBe('240002000001')
    expect(text('C3')).toBe('+1 <b>&"\' 명품 가방')
    expect(text('A4')).toBe('-0')
    expect(text('B4')).toBe('@SUM(A1)')
    expect(text('C4')).toBe(' 앞뒤 공백 ')
    // No formula anywhere in the sheet.
    expect(sheet).not.toMatch(/<f[\s>]/u)
    expect(cells.get('D2')).toMatchObject({ type: 'n', value: 3, format: undefined })
    expect(cells.get('D3')).toMatchObject({ type: 'n', value: 12.5 })
  })

  it('writes times as date cells in the profile zone, with a date format', async () => {
    const { cells } = readBack(
      await book([
        [null, null, null, null, '2026-11-20 18:00:00'],
        [null, null, null, null, '2026-11-20T09:00:00Z'],
        [null, null, null, null, new Date(Date.UTC(2026, 10, 20, 9, 0, 0))],
        [null, null, null, null, '2026-11-20T18:00:00+09:00'],
        [null, null, null, null, '2026-02-03'],
        [null, null, null, null, '2026-02-30 10:00:00'],
        [null, null, null, null, 'soon'],
      ]),
    )
    const date = (address: string) => {
      const cell = cells.get(address)
      expect(cell?.type, address).toBe('n')
      expect(cell?.format, address).toMatch(/^yyyy-mm-dd( hh:mm:ss)?$/u)
      return cell?.value as number
    }
    // The service's wall-clock text is written as it is; instants become Seoul time.
    for (const address of ['E2', 'E3', 'E4', 'E5']) {
      expect(date(address)).toBeCloseTo(serial(2026, 11, 20, 18), 9)
    }
    expect(date('E6')).toBe(serial(2026, 2, 3))
    expect(cells.get('E6')?.format).toBe('yyyy-mm-dd')
    // What is no real time stays text, as sent.
    expect(cells.get('E7')).toMatchObject({ type: 's', value: '2026-02-30 10:00:00' })
    expect(cells.get('E8')).toMatchObject({ type: 's', value: 'soon' })

    const newYork = readBack(
      await book([[null, null, null, null, '2026-11-20T09:00:00Z']], {
        timeZone: 'America/New_York',
      }),
    )
    expect(newYork.cells.get('E2')?.value).toBeCloseTo(serial(2026, 11, 20, 4), 9)
  })

  it('has a bold Korean header row, frozen, and the caption above it when given', async () => {
    const plain = readBack(await book([['1', '2', '3', 4, null]]))
    expect(COLUMNS.map((_, c) => plain.cells.get(`${'ABCDE'[c]}1`)?.value)).toEqual(
      COLUMNS.map((column) => column.header),
    )
    expect(plain.cells.get('A1')).toMatchObject({ type: 's', bold: true })
    expect(plain.cells.get('A2')?.bold).toBe(false)
    expect(plain.sheet).toMatch(/<pane [^>]*ySplit="1"[^>]*state="frozen"/u)

    const captioned = readBack(
      await book([['1', '2', '3', 4, null]], {
        caption: '# 감정 내역 · 기준 시각 2026-11-25 10:00',
      }),
    )
    expect(captioned.cells.get('A1')?.value).toBe('# 감정 내역 · 기준 시각 2026-11-25 10:00')
    expect(captioned.cells.get('A2')).toMatchObject({ value: '주문 ID', bold: true })
    expect(captioned.cells.get('A3')?.value).toBe('1')
    expect(captioned.sheet).toMatch(/<pane [^>]*ySplit="2"[^>]*state="frozen"/u)
  })

  it('is a workbook a spreadsheet opens: its parts, its sheet name, no macro', async () => {
    const { files, part } = readBack(
      await book([['1', '2', '3', 4, null]], { name: '감정/내역:[11월]' }),
    )
    expect(Object.keys(files).sort()).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/_rels/workbook.xml.rels',
      'xl/sharedStrings.xml',
      'xl/styles.xml',
      'xl/workbook.xml',
      'xl/worksheets/_rels/sheet1.xml.rels',
      'xl/worksheets/sheet1.xml',
    ])
    expect(part('xl/workbook.xml')).toContain('name="감정내역11월"')
    expect(part('[Content_Types].xml')).not.toMatch(/macroEnabled|vbaProject/u)
  })

  it('refuses what Excel cannot hold with a clear error, and a row wider than the header', async () => {
    const long = 'x'.repeat(XLSX_MAX_CELL_TEXT + 1)
    await expect(book([['1', '2', long, null, null]])).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('상품명') as unknown,
    })
    await expect(book([['1', '2', '3', 4, null, 'extra']])).rejects.toMatchObject({
      code: 'invalid_argument',
    })
    const error = await book([], { timeZone: 'Mars/Olympus' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect((error as AppError).code).toBe('invalid_argument')
    // Too many cells for one workbook: refused before any is written.
    const wide = Array.from({ length: XLSX_MAX_COLUMNS }, (_, c) => ({
      header: `c${c}`,
      type: 'text' as const,
    }))
    function* rows() {
      for (let line = 0; line <= XLSX_MAX_CELLS / XLSX_MAX_COLUMNS + 1; line += 1) yield []
    }
    await expect(
      toXlsx({ columns: wide, rows: rows(), timeZone: 'Asia/Seoul' }),
    ).rejects.toMatchObject({
      code: 'too_large',
      message: expect.stringContaining('CSV') as unknown,
    })
    await expect(
      toXlsx({ columns: [...wide, ...COLUMNS], rows: [], timeZone: 'Asia/Seoul' }),
    ).rejects.toMatchObject({ code: 'too_large' })
    // At the limit it is written.
    const { cells } = readBack(await book([['1', '2', 'y'.repeat(XLSX_MAX_CELL_TEXT), null, null]]))
    expect(String(cells.get('C2')?.value)).toHaveLength(XLSX_MAX_CELL_TEXT)
  })
})
