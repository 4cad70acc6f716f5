/** The file formats of an export: an Excel workbook (the default), or CSV for other programs. */
export const EXPORT_FORMATS = ['xlsx', 'csv'] as const
/** One of {@link EXPORT_FORMATS}. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** The file name's extension of a format. */
export function exportExtension(format: ExportFormat): string {
  return format === 'xlsx' ? '.xlsx' : '.csv'
}

/** Answer of an export (`lists.export`, `wallet.export`, `reconcile.export`). */
export interface ExportResult {
  /** `saved`: written to `path` (Electron); `download`: the file for the browser to download; `cancelled`: the user closed the dialog. */
  readonly kind: 'saved' | 'download' | 'cancelled'
  readonly format: ExportFormat
  readonly rows: number
  readonly fileName: string
  readonly path?: string
  /** `download` of a CSV: its text. */
  readonly csv?: string
  /** `download` of a workbook: its bytes, base64 (the answer travels as JSON in the web host). */
  readonly xlsx?: string
}

/** The MIME type of each format, for a download and the save dialog. */
export const EXPORT_MIME: Readonly<Record<ExportFormat, string>> = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv;charset=utf-8',
}
