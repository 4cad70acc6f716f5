import type { StoreConnection } from '../store/connection'
import type { ExportFormat } from '../../shared/export'
import { message, type Locale } from '../../shared/i18n'
import type { ReconcileGroup, ReconcileKind, ReconcileRecord } from '../../shared/reconcile'
import { reconcileGroups } from '../store/queries/reconcile'
import { writeExport, type ExportColumn, type ExportData } from './export-file'

/**
 * The reconciliation view as a file: one line per record (kind, member,
 * order line, list, idx), in the view's order, headers in the UI's language.
 * Runs where the store runs.
 */

/** What {@link reconcileExport} writes. */
export interface ReconcileExport {
  readonly kind?: ReconcileKind | undefined
  readonly member?: string | undefined
  readonly lang: Locale
  readonly format: ExportFormat
  readonly timeZone: string
}

type Line = ReconcileRecord & { readonly group: ReconcileGroup }

function columnsOf(lang: Locale): ExportColumn<Line>[] {
  return [
    {
      header: message(lang, 'reconcile.col.kind'),
      value: (line) => message(lang, `reconcile.kind.${line.group.kind}`),
    },
    { header: message(lang, 'reconcile.col.member'), value: (line) => line.group.member },
    { header: message(lang, 'field.refOrderId'), value: (line) => line.group.orderId },
    { header: message(lang, 'field.refOrderDetailId'), value: (line) => line.group.orderDetailId },
    {
      header: message(lang, 'reconcile.col.list'),
      value: (line) =>
        message(lang, line.resource === 'inspections' ? 'nav.inspections' : 'nav.guarantees'),
    },
    { header: message(lang, 'reconcile.col.idx'), value: (line) => line.idx },
  ]
}

/** The file and how many records it holds. */
export async function reconcileExport(
  db: StoreConnection,
  job: ReconcileExport,
): Promise<{ data: ExportData; rows: number }> {
  const lines: Line[] = []
  for (const group of reconcileGroups(db, { kind: job.kind, member: job.member })) {
    for (const record of group.records) lines.push({ ...record, group })
  }
  const data = await writeExport(lines, columnsOf(job.lang), {
    format: job.format,
    timeZone: job.timeZone,
    sheet: message(job.lang, 'nav.reconcile'),
  })
  return { data, rows: lines.length }
}
