import type { CsvExportResult } from '../../../shared/export'

/** What an export did, for the message shown after it (`path` null: downloaded by the browser). */
export interface ExportDone {
  readonly rows: number
  readonly file: string
  readonly path: string | null
}

/**
 * Finishes a CSV export: in the web host the answer carries the text and the
 * browser downloads it; in the app core already saved it through the save
 * dialog. Null when the user closed the dialog.
 */
export function deliverCsv(answer: CsvExportResult): ExportDone | null {
  if (answer.kind === 'download' && answer.csv !== undefined) {
    const url = URL.createObjectURL(new Blob([answer.csv], { type: 'text/csv;charset=utf-8' }))
    const link = document.createElement('a')
    link.href = url
    link.download = answer.fileName
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
    return { rows: answer.rows, file: answer.fileName, path: null }
  }
  if (answer.kind === 'saved') {
    return { rows: answer.rows, file: answer.fileName, path: answer.path ?? answer.fileName }
  }
  return null
}
