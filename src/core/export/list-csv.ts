import type { StoreConnection } from '../store/connection'
import type { GuaranteeRow, InspectionRow, ReviewMarkName } from '../../shared/cache'
import type { FieldSpec } from '../../shared/record-fields'
import type { PagedResource } from '../store/record-types'
import {
  MAX_LIMIT,
  queryGuarantees,
  queryInspections,
  type GuaranteeQuery,
} from '../store/list-queries'
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
  readonly query: Omit<GuaranteeQuery, 'limit' | 'cursor'>
  readonly lang: 'ko' | 'en'
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

const FIELD_HEADERS: Readonly<Record<string, readonly [ko: string, en: string]>> = {
  idx: ['번호(idx)', 'idx'],
  status: ['상태', 'Status'],
  productName: ['상품명', 'Product'],
  nftCardImg: ['카드 이미지', 'Card image'],
  refUserId: ['회원 ID', 'Member ID'],
  refOrderId: ['주문 ID', 'Order ID'],
  refOrderDetailId: ['주문 상세 ID', 'Order line ID'],
  refProductCode: ['상품 코드', 'Product code'],
  refCategoryCode: ['카테고리 코드', 'Category code'],
  refBrandCode: ['브랜드 코드', 'Brand code'],
  refEtcData1: ['기타 1', 'Extra 1'],
  refEtcData2: ['기타 2', 'Extra 2'],
  refEtcData3: ['기타 3', 'Extra 3'],
  registeredAt: ['등록 시각', 'Registered'],
  modifiedAt: ['수정 시각', 'Modified'],
  inspectionNum: ['감정 번호', 'Inspection no.'],
  inspectionStatus: ['감정 상태', 'Inspection status'],
  inspectionResult: ['감정 결과', 'Result'],
}

const MARK_TEXT: Readonly<Record<ReviewMarkName, readonly [string, string]>> = {
  reviewed: ['검토 완료', 'Reviewed'],
  follow_up: ['후속 조치 필요', 'Needs follow-up'],
  none: ['', ''],
}

const EXTRA_HEADERS = {
  gone: ['서비스에서 사라짐', 'Gone from service'],
  mark: ['검토 표시', 'Review mark'],
  note: ['검토 메모', 'Review note'],
  by: ['검토자', 'Reviewer'],
  at: ['검토 시각', 'Reviewed at'],
} as const

function columnsOf(resource: PagedResource, lang: 'ko' | 'en'): CsvColumn<Row>[] {
  const pick = (pair: readonly [string, string]) => (lang === 'ko' ? pair[0] : pair[1])
  const fields: readonly FieldSpec[] = RECORD_TABLES[resource].fields
  const declared = fields
    .filter((f) => !NOT_EXPORTED.has(f.api))
    .map<CsvColumn<Row>>((f) => ({
      header: pick(FIELD_HEADERS[f.api] ?? [f.api, f.api]),
      value: (row) => cell(row.full[f.api]),
    }))
  const yes = lang === 'ko' ? '예' : 'yes'
  return [
    ...declared,
    { header: pick(EXTRA_HEADERS.gone), value: (row) => (row.gone ? yes : '') },
    {
      header: pick(EXTRA_HEADERS.mark),
      value: (row) => (row.review ? pick(MARK_TEXT[row.review.mark]) : ''),
    },
    { header: pick(EXTRA_HEADERS.note), value: (row) => row.review?.note ?? '' },
    { header: pick(EXTRA_HEADERS.by), value: (row) => row.review?.by ?? '' },
    { header: pick(EXTRA_HEADERS.at), value: (row) => row.review?.at ?? '' },
  ]
}

function cell(value: unknown): string | number | null {
  if (value === null || value === undefined) return null
  return typeof value === 'number' ? value : String(value)
}

/** The first line: what was exported, as of when (a spreadsheet shows it above the header). */
function stampOf(job: ListExport, rows: number): string {
  const q = job.query
  const ko = job.lang === 'ko'
  const parts: string[] = []
  const add = (label: readonly [string, string], value: string | undefined | null) => {
    if (value !== undefined && value !== null && value !== '')
      parts.push(`${ko ? label[0] : label[1]}=${value}`)
  }
  add(['검색', 'search'], q.q)
  add(['상태', 'status'], q.status === null ? (ko ? '(없음)' : '(none)') : q.status)
  add(['발급 상태', 'state'], q.state)
  add(['회원', 'member'], q.member)
  add(['시작일', 'from'], q.from)
  add(['종료일', 'to'], q.to)
  add(['검토', 'review'], q.review)
  add(['정렬', 'sort'], q.sort)
  const title =
    job.resource === 'inspections'
      ? ko
        ? '감정 내역'
        : 'Inspections'
      : ko
        ? '보증서'
        : 'Guarantees'
  const filter = parts.length > 0 ? parts.join('; ') : ko ? '필터 없음' : 'no filter'
  return ko
    ? `# ${title} · ${filter} · 기준 시각 ${job.asOf} (${job.timeZone}) · ${rows}건`
    : `# ${title} · ${filter} · as of ${job.asOf} (${job.timeZone}) · ${rows} rows`
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
    const args = { ...job.query, limit: MAX_LIMIT, ...(cursor ? { cursor } : {}) }
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
