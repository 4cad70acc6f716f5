import { describe, expect, it } from 'vitest'
import { toCsv } from '../../../src/core/export/csv'

describe('toCsv', () => {
  it('writes a BOM, CRLF line ends and RFC 4180 quoting; Korean text as UTF-8', () => {
    const rows = [
      { name: '샤넬, 클래식', note: 'says "hi"\nsecond line', n: 3 },
      { name: 'plain', note: null, n: -5 },
    ]
    const csv = toCsv(rows, [
      { header: '이름', value: (row) => row.name },
      { header: 'note', value: (row) => row.note },
      { header: 'n', value: (row) => row.n },
    ])
    expect(csv).toBe(
      '\uFEFF이름,note,n\r\n"샤넬, 클래식","says ""hi""\nsecond line",3\r\nplain,,-5\r\n',
    )
  })

  it('keeps a spreadsheet from running text that looks like a formula', () => {
    const csv = toCsv(
      [{ v: '=1+1' }, { v: '+cmd' }, { v: '-x' }, { v: '@sum' }, { v: 'ok=1' }],
      [{ header: 'v', value: (row) => row.v }],
    )
    expect(csv.split('\r\n').slice(1, 6)).toEqual(["'=1+1", "'+cmd", "'-x", "'@sum", 'ok=1'])
  })
})
