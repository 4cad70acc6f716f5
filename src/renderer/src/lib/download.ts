import { EXPORT_MIME, type ExportResult } from '../../../shared/export'

/** What an export did, for the message shown after it (`path` null: downloaded by the browser). */
export interface ExportDone {
  readonly rows: number
  readonly file: string
  readonly path: string | null
}

/** The downloaded file's bytes or text: a workbook arrives as base64 (the answer is JSON). */
function fileOf(answer: ExportResult): Blob | null {
  if (answer.xlsx !== undefined) {
    const binary = atob(answer.xlsx)
    const bytes = new Uint8Array(binary.length)
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i)
    return new Blob([bytes], { type: EXPORT_MIME.xlsx })
  }
  return answer.csv === undefined ? null : new Blob([answer.csv], { type: EXPORT_MIME.csv })
}

/**
 * Finishes an export (a workbook or CSV): in the web host the answer carries
 * the file and the browser downloads it; in the app core already saved it
 * through the save dialog. Null when the user closed the dialog.
 */
export function deliverExport(answer: ExportResult): ExportDone | null {
  const file = answer.kind === 'download' ? fileOf(answer) : null
  if (file) {
    const url = URL.createObjectURL(file)
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
