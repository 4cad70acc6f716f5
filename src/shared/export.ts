/** Answer of a CSV export (`lists.export`, `wallet.export`). */
export interface CsvExportResult {
  /** `saved`: written to `path` (Electron); `download`: the CSV text for the browser to download; `cancelled`: the user closed the dialog. */
  readonly kind: 'saved' | 'download' | 'cancelled'
  readonly rows: number
  readonly fileName: string
  readonly path?: string
  readonly csv?: string
}
