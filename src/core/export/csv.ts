import { stringify } from 'csv-stringify/sync'

/**
 * CSV for spreadsheet users: RFC 4180 quoting, CRLF line ends and a UTF-8
 * byte-order mark, so Excel opens Korean text correctly. Shared by every
 * export (wallet history now, the review lists later).
 */

/** One column: its header and how to read it from a row. */
export interface CsvColumn<T> {
  readonly header: string
  readonly value: (row: T) => string | number | null | undefined
}

/** The CSV text (with BOM) of `rows` under `columns`. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const records = rows.map((row) =>
    columns.map((column) => {
      const value = column.value(row)
      if (value === null || value === undefined) return ''
      // A text cell starting like a formula is prefixed with ' so a spreadsheet shows it
      // as text instead of running it (OWASP "CSV injection").
      return typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : String(value)
    }),
  )
  return stringify([columns.map((column) => column.header), ...records], {
    bom: true,
    record_delimiter: 'windows',
  })
}
