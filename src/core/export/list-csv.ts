import type { StoreConnection } from '../store/connection'
import type { GuaranteeRow, InspectionRow, ReviewMarkName } from '../../shared/cache'
import { isMessageKey, message, type Locale } from '../../shared/i18n'
import type { FieldSpec } from '../../shared/record-fields'
import type { PagedResource } from '../store/record-types'
import { LIST_LIMIT } from '../../shared/contract'
import { queryGuarantees, queryInspections, type GuaranteeListRequest } from '../store/list-queries'
import { expandRecord, RECORD_TABLES } from '../store/stored-raw'
import { csvField, toCsv, type CsvColumn } from './csv'

/**
 * CSV of a whole list: the current filter and sort, every declared field of
 * each record (those kept only in the raw JSON too) and its review mark,
 * with a first line stating the filter and the "as of" time. Runs where the
 * store runs, walking keyset pages, so no page is ever held twice.
 */

/** What {@link listCsv} exports: a list's filter, without paging. */
export interface ListExport {
  readonly resource: PagedResource
  readonly query: Omit<GuaranteeListRequest, 'limit' | 'cursor'>
  readonly lang: Locale
  /** Local time text of the export, in the profile's zone. */
  readonly asOf: string
  readonly timeZone: string
}

/**
 * A field the export leaves out: `guaranteeToken` is what opens a wallet
 * sync for that guarantee, a credential that does not belong in a
 * spreadsheet that gets mailed around.
 */
const NOT_EXPORTED = new Set(['guaranteeToken'])

type Row = (GuaranteeRow | InspectionRow) & { readonly full: Record<string, unknown> }

/** The header of a declared field: the label the screen shows for it (`field.<name>`). */
function fieldHeader(lang: Locale, api: string): string {
  const key = `field.${api}`
  return isMessageKey(key) ? message(lang, key) : api
}

/** The review mark as the screen names it; no mark is an empty cell. */
function markText(lang: Locale, mark: ReviewMarkName): string {
  return mark === 'none' ? '' : message(lang, `review.${mark}`)
}

function columnsOf(resource: PagedResource, lang: Locale): CsvColumn<Row>[] {
  const fields: readonly FieldSpec[] = RECORD_TABLES[resource].fields
  const declared = fields
    .filter((f) => !NOT_EXPORTED.has(f.api))
    .map<CsvColumn<Row>>((f) => ({
      header: fieldHeader(lang, f.api),
      value: (row) => cell(row.full[f.api]),
    }))
  const yes = message(lang, 'export.yes')
  return [
    ...declared,
    { header: message(lang, 'export.gone'), value: (row) => (row.gone ? yes : '') },
    {
      header: message(lang, 'export.mark'),
      value: (row) => (row.review ? markText(lang, row.review.mark) : ''),
    },
    { header: message(lang, 'export.note'), value: (row) => row.review?.note ?? '' },
    { header: message(lang, 'export.by'), value: (row) => row.review?.by ?? '' },
    { header: message(lang, 'export.at'), value: (row) => row.review?.at ?? '' },
  ]
}

function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null
  return typeof value === 'number' ? value : String(value)
}

/** The filter parts the first line names, in this order. */
const STAMPED = ['q', 'status', 'state', 'member', 'from', 'to', 'review', 'sort'] as const

/** The first line: what was exported, as of when (a spreadsheet shows it above the header). */
function stampOf(job: ListExport, rows: number): string {
  const lang = job.lang
  const parts: string[] = []
  for (const name of STAMPED) {
    const raw = job.query[name]
    const value = name === 'status' && raw === null ? message(lang, 'export.noStatus') : raw
    if (value !== undefined && value !== null && value !== '')
      parts.push(`${message(lang, `export.filter.${name}`)}=${value}`)
  }
  return message(lang, 'export.stamp', {
    title: message(lang, job.resource === 'inspections' ? 'nav.inspections' : 'nav.guarantees'),
    filter: parts.length > 0 ? parts.join('; ') : message(lang, 'export.noFilter'),
    asOf: job.asOf,
    zone: job.timeZone,
    n: rows,
  })
}

/** Every row of the filter in its sort order, with each record's full field set. */
function* rowsOf(db: StoreConnection, job: ListExport): Generator<Row[]> {
  const table = RECORD_TABLES[job.resource]
  // One statement per page for the full rows (fields kept only in the raw JSON included).
  const full = db.prepare(
    `SELECT * FROM ${job.resource} WHERE idx IN (SELECT value FROM json_each(?))`,
  )
  let cursor: string | undefined
  do {
    const args = { ...job.query, limit: LIST_LIMIT.max, ...(cursor ? { cursor } : {}) }
    const page =
      job.resource === 'guarantees' ? queryGuarantees(db, args) : queryInspections(db, args)
    const stored = new Map<number, Record<string, unknown>>()
    for (const row of full.all(JSON.stringify(page.rows.map((r) => r.idx)))) {
      stored.set(Number(row['idx']), row as Record<string, unknown>)
    }
    yield page.rows.map((row: GuaranteeRow | InspectionRow) => ({
      ...row,
      full: expandRecord(table, stored.get(row.idx) ?? {}),
    }))
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

/** The CSV text (UTF-8 BOM, CRLF, RFC 4180) of a list, and how many records it holds. */
export function listCsv(db: StoreConnection, job: ListExport): { csv: string; rows: number } {
  const rows: Row[] = []
  for (const page of rowsOf(db, job)) rows.push(...page)
  const body = toCsv(rows, columnsOf(job.resource, job.lang))
  // The stamp goes after the BOM, so Excel still reads the file as UTF-8.
  const bom = body.startsWith('\ufeff') ? '\ufeff' : ''
  const stamp = stampOf(job, rows.length).replace(/\r?\n/gu, ' ')
  return { csv: `${bom}${csvField(stamp)}\r\n${body.slice(bom.length)}`, rows: rows.length }
}

/** File name of an export: the list, the profile and the "as of" time. */
export function listCsvName(job: ListExport, profileId: string): string {
  const stamp = job.asOf.replace(/[: ]/gu, '').replace(/^(\d{4})-(\d{2})-(\d{2})/u, '$1$2$3-')
  return `${job.resource}-${profileId}-${stamp}.csv`
}
