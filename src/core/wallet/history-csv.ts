import { message, type Locale, type MessageKey } from '../../shared/i18n'
import type { WalletHistoryRow } from '../../shared/wallet'
import { toCsv, type CsvColumn } from '../export/csv'

/** Each column: the label the history table shows for it, and its value. */
const COLUMNS: readonly (readonly [MessageKey, CsvColumn<WalletHistoryRow>['value']])[] = [
  ['wallet.col.started', (row) => row.startedAt],
  ['wallet.col.ended', (row) => row.endedAt],
  ['wallet.col.flow', (row) => row.flow],
  ['wallet.col.member', (row) => row.refUserId],
  ['wallet.col.guarantee', (row) => row.guaranteeIdx],
  ['wallet.col.outcome', (row) => row.outcome],
  ['wallet.col.detail', (row) => row.detail],
]

/** The wallet-link history as CSV (UTF-8 with BOM, CRLF), headers in the UI's language. */
export function walletHistoryCsv(rows: readonly WalletHistoryRow[], lang: Locale): string {
  return toCsv(
    rows,
    COLUMNS.map(([key, value]) => ({ header: message(lang, key), value })),
  )
}
