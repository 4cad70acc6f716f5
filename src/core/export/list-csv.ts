import type { StoreConnection } from '../store/connection'
import type { GuaranteeRow, InspectionRow, ReviewMarkName } from '../../shared/lists'
import { isMessageKey, message, type Locale } from '../../shared/i18n'
import { GUARANTEE_STATE_LABELS, type GuaranteeState } from '../../shared/domain'
import { serviceTimeText } from '../../shared/time-text'
import type { FieldSpec } from '../../shared/record-fields'
import type { PagedResource } from '../store/record-types'
import { LIST_LIMIT } from '../../shared/list-limit'
import { queryGuarantees, queryInspections } from '../store/queries/list-queries'
import type { GuaranteeListRequest } from '../store/queries/list-sql'
import { expandRecord, RECORD_TABLES } from '../store/schema/stored-raw'
import { withCardUrl } from '../store/schema/card-urls'
import { exportExtension, type ExportFormat } from '../../shared/export'
import { csvWithCaption, writeExport, type ExportColumn } from './export-file'

/**
 * A whole list as CSV or an Excel workbook: the current filter and sort,
 * every declared field of each record (those kept only in the raw JSON too)
 * and its review mark, with a first line stating the filter and the "as of"
 * time. In a workbook the times are date cells, everything else text. Runs
 * where the store runs, walking keyset pages, so no page is ever held twice.
 */

/** What {@link listCsv} exports: a list's filter, without paging. */
export interface ListExport {
  readonly resource: PagedResource
  readonly query: Omit<GuaranteeListRequest, 'limit' | 'cursor'>
  readonly lang: Locale
  /** Local time text of the export, in the profile's zone. */
  readonly asOf: string
  readonly timeZone: string
  /** The export's instant (ISO): days in status count back from it, as the aging filter does. */
  readonly now: string
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

/** The declared fields whose values are times: date cells in a workbook. */
const TIMES = new Set(['registeredAt', 'modifiedAt'])

/** Whole days from `since` to `now` (both ISO); null without a `since`. */
function daysBetween(since: string | null, now: string): number | null {
  if (since === null) return null
  return Math.max(0, Math.floor((Date.parse(now) - Date.parse(since)) / 86_400_000))
}

function columnsOf(resource: PagedResource, lang: Locale, now: string): ExportColumn<Row>[] {
  const fields: readonly FieldSpec[] = RECORD_TABLES[resource].fields
  const declared = fields
    .filter((f) => !NOT_EXPORTED.has(f.api))
    .map<ExportColumn<Row>>((f) => ({
      header: fieldHeader(lang, f.api),
      value: (row) => cell(row.full[f.api]),
      type: TIMES.has(f.api) ? 'date' : 'text',
    }))
  const yes = message(lang, 'export.yes')
  return [
    ...declared,
    { header: message(lang, 'export.gone'), value: (row) => (row.gone ? yes : '') },
    {
      header: message(lang, 'export.agedDays'),
      value: (row) => daysBetween(row.statusSince, now),
      type: 'number',
    },
    {
      header: message(lang, 'export.mark'),
      value: (row) => (row.review ? markText(lang, row.review.mark) : ''),
    },
    { header: message(lang, 'export.note'), value: (row) => row.review?.note ?? '' },
    { header: message(lang, 'export.by'), value: (row) => row.review?.by ?? '' },
    { header: message(lang, 'export.at'), value: (row) => row.review?.at ?? '', type: 'date' },
  ]
}

function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null
  return typeof value === 'number' ? value : String(value)
}

/** The filter parts the first line names, in this order. */
const STAMPED = [
  'q',
  'status',
  'state',
  'member',
  'from',
  'to',
  'review',
  'markedBy',
  'assignee',
  'agedDays',
  'sort',
] as const

/** A filter part's value in words, as the list's controls name it. */
function filterValueText(lang: Locale, name: (typeof STAMPED)[number], value: unknown): string {
  if (name === 'status' && value === null) return message(lang, 'export.noStatus')
  const key = name === 'sort' ? `list.sort.${String(value)}` : `review.${String(value)}`
  if ((name === 'sort' || name === 'review') && isMessageKey(key)) return message(lang, key)
  if (name === 'state' && typeof value === 'string' && value in GUARANTEE_STATE_LABELS)
    return GUARANTEE_STATE_LABELS[value as GuaranteeState]
  // Who marked or holds a record: me, others or nobody in words; one member by login role.
  if (name === 'markedBy' || name === 'assignee') {
    if (typeof value === 'object' && value !== null && 'role' in value) return String(value.role)
    const word = `export.${name}.${String(value)}`
    if (isMessageKey(word)) return message(lang, word)
  }
  return String(value)
}

/**
 * The first line: what was exported, as of when (a spreadsheet shows it
 * above the header), in words: `검색: 3023 · 정렬: 최신순`, never a code.
 */
function stampOf(job: ListExport, rows: number): string {
  const lang = job.lang
  const parts: string[] = []
  for (const name of STAMPED) {
    const value = job.query[name]
    if (value === undefined || value === '' || (value === null && name !== 'status')) continue
    parts.push(
      message(lang, 'export.filterPart', {
        name: message(lang, `export.filter.${name}`),
        value: filterValueText(lang, name, value),
      }),
    )
  }
  return message(lang, 'export.stamp', {
    title: message(lang, job.resource === 'inspections' ? 'nav.inspections' : 'nav.guarantees'),
    filter: parts.length > 0 ? parts.join(' · ') : message(lang, 'export.noFilter'),
    asOf: serviceTimeText(job.asOf, 'minute'),
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
    const args = {
      ...job.query,
      ...(job.query.agedDays === undefined ? {} : { agedAsOf: job.now }),
      limit: LIST_LIMIT.max,
      ...(cursor ? { cursor } : {}),
    }
    const page =
      job.resource === 'guarantees' ? queryGuarantees(db, args) : queryInspections(db, args)
    const stored = new Map<number, Record<string, unknown>>()
    for (const row of full.all(JSON.stringify(page.rows.map((r) => r.idx)))) {
      stored.set(Number(row['idx']), row as Record<string, unknown>)
    }
    yield page.rows.map((row: GuaranteeRow | InspectionRow) => ({
      ...row,
      full: expandRecord(table, withCardUrl(db, stored.get(row.idx) ?? {})),
    }))
    cursor = page.nextCursor ?? undefined
  } while (cursor)
}

function allRows(db: StoreConnection, job: ListExport): Row[] {
  const rows: Row[] = []
  for (const page of rowsOf(db, job)) rows.push(...page)
  return rows
}

/**
 * The CSV text (UTF-8 BOM, CRLF, RFC 4180) of a list, and how many records it holds.
 * @internal
 */
export function listCsv(db: StoreConnection, job: ListExport): { csv: string; rows: number } {
  const rows = allRows(db, job)
  const csv = csvWithCaption(
    rows,
    columnsOf(job.resource, job.lang, job.now),
    stampOf(job, rows.length),
    job.timeZone,
  )
  return { csv, rows: rows.length }
}

/** A list's export in `format`: CSV text or a workbook's bytes, and how many records it holds. */
export async function listExport(
  db: StoreConnection,
  job: ListExport & { readonly format: ExportFormat },
): Promise<{ data: string | Uint8Array; rows: number }> {
  if (job.format === 'csv') {
    const { csv, rows } = listCsv(db, job)
    return { data: csv, rows }
  }
  const rows = allRows(db, job)
  const data = await writeExport(rows, columnsOf(job.resource, job.lang, job.now), {
    format: job.format,
    caption: stampOf(job, rows.length),
    timeZone: job.timeZone,
    sheet: message(job.lang, job.resource === 'inspections' ? 'nav.inspections' : 'nav.guarantees'),
  })
  return { data, rows: rows.length }
}

/** File name of an export: the list, the profile, the "as of" time and the format's extension. */
export function listExportName(
  job: ListExport,
  profileId: string,
  format: ExportFormat = 'csv',
): string {
  const stamp = job.asOf.replace(/[: ]/gu, '').replace(/^(\d{4})-(\d{2})-(\d{2})/u, '$1$2$3-')
  return `${job.resource}-${profileId}-${stamp}${exportExtension(format)}`
}
