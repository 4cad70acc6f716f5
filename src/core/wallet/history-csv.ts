import type { WalletHistoryRow } from '../../shared/wallet'
import { toCsv, type CsvColumn } from '../export/csv'

const HEADERS = {
  ko: ['시작', '종료', '흐름', '회원', '보증서', '결과', '상세'],
  en: ['Started', 'Ended', 'Flow', 'Member', 'Guarantee', 'Outcome', 'Detail'],
} as const

/** The wallet-link history as CSV (UTF-8 with BOM, CRLF), headers in the UI's language. */
export function walletHistoryCsv(rows: readonly WalletHistoryRow[], lang: 'ko' | 'en'): string {
  const [started, ended, flow, member, guarantee, outcome, detail] = HEADERS[lang]
  const columns: CsvColumn<WalletHistoryRow>[] = [
    { header: started, value: (row) => row.startedAt },
    { header: ended, value: (row) => row.endedAt },
    { header: flow, value: (row) => row.flow },
    { header: member, value: (row) => row.refUserId },
    { header: guarantee, value: (row) => row.guaranteeIdx },
    { header: outcome, value: (row) => row.outcome },
    { header: detail, value: (row) => row.detail },
  ]
  return toCsv(rows, columns)
}
