import { message, type Locale, type MessageKey } from '../../shared/i18n'
import type { ExportFormat } from '../../shared/export'
import type { WalletHistoryRow } from '../../shared/wallet'
import { writeExport, type ExportColumn, type ExportData } from '../export/export-file'

/**
 * Each column: the label the history table shows for it, its value (a flow
 * and an outcome in the words the table uses, never their codes), and its
 * cells' type.
 */
function columnsOf(lang: Locale): ExportColumn<WalletHistoryRow>[] {
  const columns: readonly (readonly [
    MessageKey,
    ExportColumn<WalletHistoryRow>['value'],
    ExportColumn<WalletHistoryRow>['type'],
  ])[] = [
    ['wallet.col.started', (row) => row.startedAt, 'date'],
    ['wallet.col.ended', (row) => row.endedAt, 'date'],
    ['wallet.col.flow', (row) => message(lang, `wallet.flow.${row.flow}`), 'text'],
    ['wallet.col.member', (row) => row.refUserId, 'text'],
    ['wallet.col.guarantee', (row) => row.guaranteeIdx, 'text'],
    ['wallet.col.outcome', (row) => message(lang, `wallet.outcome.${row.outcome}`), 'text'],
    ['wallet.col.detail', (row) => row.detail, 'text'],
  ]
  return columns.map(([key, value, type]) => ({ header: message(lang, key), value, type }))
}

/**
 * The wallet-link history as CSV or a workbook, the same columns and
 * headers; in a workbook the start and end are date cells in `timeZone`.
 */
export function walletHistoryExport(
  rows: readonly WalletHistoryRow[],
  job: { readonly lang: Locale; readonly format: ExportFormat; readonly timeZone: string },
): Promise<ExportData> {
  return writeExport(rows, columnsOf(job.lang), {
    format: job.format,
    timeZone: job.timeZone,
    sheet: message(job.lang, 'nav.wallet'),
  })
}
