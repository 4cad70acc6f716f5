/**
 * CSV for spreadsheet users: RFC 4180 quoting, CRLF line ends and a UTF-8
 * byte-order mark, so Excel opens Korean text correctly. Shared by every
 * export (the lists and the wallet history).
 *
 * Written by hand rather than with `csv-stringify`: RFC 4180 quoting is three
 * rules (quote a field holding `"`, `,`, CR or LF; double its quotes; end
 * records with CRLF), and the library's per-field option handling would
 * take most of a large export's time budget (`export_csv_100k_ms`).
 */

/** One column: its header and how to read it from a row. */
export interface CsvColumn<T> {
  readonly header: string
  readonly value: (row: T) => string | number | null | undefined
}

const NEEDS_QUOTES = /[",\r\n]/u
const FORMULA_START = /^[=+\-@\t\r]/u

/** One field, quoted when RFC 4180 needs it. */
export function csvField(text: string): string {
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/gu, '""')}"` : text
}

/**
 * A cell's text. A text cell starting like a formula is prefixed with `'`, so a
 * spreadsheet shows it as text instead of running it (OWASP "CSV injection").
 */
function cellText(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return ''
  if (typeof value !== 'string') return String(value)
  return FORMULA_START.test(value) ? `'${value}` : value
}

/** The CSV text (with BOM) of `rows` under `columns`. */
export function toCsv<T>(rows: readonly T[], columns: readonly CsvColumn<T>[]): string {
  const lines = [columns.map((column) => csvField(column.header)).join(',')]
  for (const row of rows) {
    lines.push(columns.map((column) => csvField(cellText(column.value(row)))).join(','))
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`
}
