import writeXlsxFile, { type Cell, type Row } from 'write-excel-file/node'
import { localTimestamp } from '../../shared/local-time'
import { AppError } from '../app-error'

/**
 * Excel workbooks (`.xlsx`) for staff who open exports in Excel: every
 * identifier and text is a text cell (leading zeros stay, a 12-digit number
 * is not turned into `2.40002E+11`, a value starting with `=` is text and
 * never a formula, with no apostrophe shown), times are real date cells, the
 * header row is frozen. Written with `write-excel-file`, which writes the
 * workbook's XML itself and zips it with `fflate` (no `eval`, no workers);
 * it only writes a formula for a cell explicitly typed as one, and this
 * module never does.
 */

/** How a column's values are written. */
export type XlsxColumnType = 'text' | 'number' | 'date'

/**
 * One column: its header and the type of its cells.
 * @internal
 */
export interface XlsxColumn {
  readonly header: string
  readonly type: XlsxColumnType
  /** Width in characters (default by type). */
  readonly width?: number
}

/**
 * A cell value; null or undefined leaves the cell empty.
 * @internal
 */
export type XlsxValue = string | number | Date | null | undefined

/** What {@link toXlsx} writes: one sheet. */
export interface XlsxSheet {
  /** Sheet name (default `Sheet1`); characters Excel refuses are dropped, cut to 31. */
  readonly name?: string
  readonly columns: readonly XlsxColumn[]
  readonly rows: Iterable<readonly XlsxValue[]>
  /**
   * The zone in which an instant (a `Date`, or a time with `Z` or an offset)
   * becomes a date cell: the profile's zone. A wall-clock time as the service
   * sends it (`YYYY-MM-DD HH:MM:SS`, no zone) is written as it is.
   */
  readonly timeZone: string
  /** A line above the header (what was exported, as of when); frozen with it. */
  readonly caption?: string
}

/** Excel's limits: rows and columns per sheet, characters per cell. */
const XLSX_MAX_ROWS = 1_048_576
/** @internal */
export const XLSX_MAX_COLUMNS = 16_384
/** @internal */
export const XLSX_MAX_CELL_TEXT = 32_767
/**
 * Most cells one workbook takes: the writer holds the sheet and its XML in
 * memory (about 45 characters a cell, and a JavaScript string stops near
 * 512 M), so a larger export is refused up front; CSV has no such bound.
 * @internal
 */
export const XLSX_MAX_CELLS = 5_000_000

const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss'
const DATE_FORMAT = 'yyyy-mm-dd'
/** Excel's built-in "Text" number format: what a person types there stays text too. */
const TEXT_FORMAT = '@'
const DEFAULT_WIDTH: Readonly<Record<XlsxColumnType, number>> = { text: 18, number: 12, date: 20 }

/** `2026-11-20 18:00:00`, `2026-11-20T18:00`, `2026-11-20`: a wall-clock time without a zone. */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/u
/** An instant: a time with `Z` or an offset. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/u

/** The workbook (one sheet) of `sheet`, as the bytes of an `.xlsx` file. */
export async function toXlsx(sheet: XlsxSheet): Promise<Buffer> {
  const wallClock = wallClockOf(sheet.timeZone)
  if (sheet.columns.length > XLSX_MAX_COLUMNS) {
    throw new AppError('too_large', `A sheet holds at most ${XLSX_MAX_COLUMNS} columns.`)
  }
  const header: Row = sheet.columns.map((column) => ({
    value: column.header,
    type: String,
    fontWeight: 'bold',
  }))
  const data: Row[] = []
  if (sheet.caption !== undefined) data.push([{ value: sheet.caption, type: String }])
  data.push(header)
  let line = 0
  for (const row of sheet.rows) {
    line += 1
    if (data.length >= XLSX_MAX_ROWS) {
      throw new AppError('too_large', `A sheet holds at most ${XLSX_MAX_ROWS} rows.`)
    }
    if (line * sheet.columns.length > XLSX_MAX_CELLS) {
      throw new AppError(
        'too_large',
        `A workbook export holds at most ${XLSX_MAX_CELLS} cells; narrow the filter or export CSV.`,
      )
    }
    if (row.length > sheet.columns.length) {
      throw new AppError(
        'invalid_argument',
        `Row ${line} has ${row.length} values for ${sheet.columns.length} columns.`,
      )
    }
    data.push(
      sheet.columns.map((column, c) => cellOf(column.type, row[c], wallClock, line, column.header)),
    )
  }
  return writeXlsxFile(data, {
    sheet: sheetName(sheet.name ?? 'Sheet1'),
    stickyRowsCount: sheet.caption === undefined ? 1 : 2,
    columns: sheet.columns.map((column) => ({
      width: column.width ?? DEFAULT_WIDTH[column.type],
    })),
  }).toBuffer()
}

/** The cell of one value in a column of `type`; a value that does not fit the type stays text. */
function cellOf(
  type: XlsxColumnType,
  value: XlsxValue,
  wallClock: (instant: Date) => Date,
  line: number,
  header: string,
): Cell {
  if (value === null || value === undefined || value === '') return null
  if (type === 'number' && typeof value === 'number' && Number.isFinite(value)) {
    return { value, type: Number }
  }
  if (type === 'date') {
    const date = dateOf(value, wallClock)
    if (date) return { value: date.value, type: Date, format: date.format }
  }
  const text =
    value instanceof Date
      ? formatWallClock(wallClock(value))
      : typeof value === 'number'
        ? String(value)
        : value
  if (text.length > XLSX_MAX_CELL_TEXT) {
    throw new AppError(
      'too_large',
      `Row ${line}, column "${header}": ${text.length} characters; a cell holds at most ${XLSX_MAX_CELL_TEXT}.`,
    )
  }
  return { value: text, type: String, format: TEXT_FORMAT }
}

/**
 * A date cell's value: a `Date` whose UTC fields are the wall clock to show
 * (Excel's dates have no zone), and its format. Undefined when `value` is no time.
 */
function dateOf(
  value: string | number | Date,
  wallClock: (instant: Date) => Date,
): { value: Date; format: string } | undefined {
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? undefined
      : { value: wallClock(value), format: DATE_TIME_FORMAT }
  }
  if (typeof value !== 'string') return undefined
  if (INSTANT.test(value)) {
    const instant = new Date(value)
    return Number.isNaN(instant.getTime())
      ? undefined
      : { value: wallClock(instant), format: DATE_TIME_FORMAT }
  }
  const match = WALL_CLOCK.exec(value)
  if (!match) return undefined
  const [, y, mo, d, h, mi, s] = match.map(Number)
  const date = new Date(Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h || 0, mi || 0, s || 0))
  // A day or time that does not exist (2026-02-30, 25:00) stays text.
  if (
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() + 1 !== mo ||
    date.getUTCDate() !== d ||
    date.getUTCHours() !== (h || 0) ||
    date.getUTCMinutes() !== (mi || 0) ||
    date.getUTCSeconds() !== (s || 0)
  ) {
    return undefined
  }
  return { value: date, format: match[4] === undefined ? DATE_FORMAT : DATE_TIME_FORMAT }
}

/** Turns an instant into the `Date` whose UTC fields are its wall clock in `timeZone`. */
function wallClockOf(timeZone: string): (instant: Date) => Date {
  try {
    localTimestamp(new Date(0), timeZone)
  } catch (cause) {
    throw new AppError('invalid_argument', `Unknown time zone ${JSON.stringify(timeZone)}.`, {
      cause,
    })
  }
  return (instant) => new Date(`${localTimestamp(instant, timeZone).replace(' ', 'T')}Z`)
}

/** `YYYY-MM-DD HH:MM:SS` of a wall-clock `Date` (its UTC fields). */
function formatWallClock(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ')
}

/** A sheet name Excel accepts: no `[]:*?/\`, not empty, at most 31 characters. */
function sheetName(name: string): string {
  const clean = name
    .replace(/[[\]:*?/\\]/gu, '')
    .trim()
    .slice(0, 31)
  return clean === '' ? 'Sheet1' : clean
}
