import type { ExportFormat } from '../../shared/export'
import { timeValueText } from '../../shared/time-text'
import { csvField, toCsv, type CsvColumn } from './csv'
import type { XlsxColumnType } from './xlsx'

/**
 * One table written as either format with the same columns and headers:
 * CSV (formula guard, BOM, CRLF: `csv.ts`) or an Excel workbook (typed
 * cells, frozen header: `xlsx.ts`). Every export (the lists, the wallet
 * history, reconciliation) goes through here.
 */

/** A column of an export: its header, its value, and its cells' type in a workbook (default text). */
export interface ExportColumn<T> extends CsvColumn<T> {
  readonly type?: XlsxColumnType
}

/** What is written, besides the rows. */
export interface ExportOptions {
  readonly format: ExportFormat
  /** A line above the header: what was exported, as of when. */
  readonly caption?: string
  /** The profile's zone: where an instant becomes a workbook's date cell. */
  readonly timeZone: string
  /** The workbook's sheet name. */
  readonly sheet: string
}

/** The file: CSV text, or a workbook's bytes. */
export type ExportData = string | Uint8Array

/** The file of `rows` under `columns`. */
export async function writeExport<T>(
  rows: readonly T[],
  columns: readonly ExportColumn<T>[],
  options: ExportOptions,
): Promise<ExportData> {
  if (options.format === 'csv')
    return csvWithCaption(rows, columns, options.caption, options.timeZone)
  // Loaded on the first workbook: its library is several MB of every thread that exports
  // (the owner, which otherwise never needs it).
  const { toXlsx } = await import('./xlsx')
  const bytes = await toXlsx({
    name: options.sheet,
    timeZone: options.timeZone,
    ...(options.caption === undefined ? {} : { caption: options.caption }),
    columns: columns.map((column) => ({ header: column.header, type: column.type ?? 'text' })),
    rows: (function* () {
      for (const row of rows) yield columns.map((column) => column.value(row))
    })(),
  })
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)
}

/**
 * The CSV text of `rows`, with `caption` as its first line when given. A date
 * column's times are written as the window writes them, wall clock in
 * `timeZone` (`src/shared/time-text.ts`), never as ISO or UTC text.
 */
export function csvWithCaption<T>(
  rows: readonly T[],
  columns: readonly ExportColumn<T>[],
  caption: string | undefined,
  timeZone: string,
): string {
  const body = toCsv(
    rows,
    columns.map((column) => csvColumnOf(column, timeZone)),
  )
  if (caption === undefined) return body
  // The caption goes after the BOM, so Excel still reads the file as UTF-8.
  const bom = body.startsWith('\ufeff') ? '\ufeff' : ''
  return `${bom}${csvField(caption.replace(/\r?\n/gu, ' '))}\r\n${body.slice(bom.length)}`
}

/** A column as CSV writes it: a date column's times as wall-clock text in `timeZone`. */
function csvColumnOf<T>(column: ExportColumn<T>, timeZone: string): CsvColumn<T> {
  if (column.type !== 'date') return column
  return {
    header: column.header,
    value: (row) => {
      const value = column.value(row)
      return typeof value === 'string' ? timeValueText(value, timeZone, 'second') : value
    },
  }
}
