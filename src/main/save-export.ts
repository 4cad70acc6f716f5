import type { SaveDialogOptions, SaveDialogReturnValue } from 'electron'
import { chmod, writeFile } from 'node:fs/promises'
import { PRIVATE_FILE_MODE } from '../core/fs-private'

/** `dialog.showSaveDialog`, bound to the app window when there is one. */
export type ShowSaveDialog = (options: SaveDialogOptions) => Promise<SaveDialogReturnValue>

/**
 * Exports go through the system's save dialog and are written by main, never
 * downloaded by a page (the session cancels every download). The file holds
 * customer data, so it is readable by its owner only (0o600, also when it
 * replaces an existing file; Windows ignores the mode). Answers the path, or
 * null when cancelled. The dialog's filter follows the file's type (an Excel
 * workbook or CSV).
 */
export function createSaveWithDialog(
  showSaveDialog: ShowSaveDialog,
): (fileName: string, bytes: Uint8Array) => Promise<string | null> {
  return async (fileName, bytes) => {
    const filter = fileName.endsWith('.xlsx')
      ? { name: 'Excel', extensions: ['xlsx'] }
      : { name: 'CSV', extensions: ['csv'] }
    const chosen = await showSaveDialog({ defaultPath: fileName, filters: [filter] })
    if (chosen.canceled || !chosen.filePath) return null
    await writeFile(chosen.filePath, bytes, { mode: PRIVATE_FILE_MODE })
    await chmod(chosen.filePath, PRIVATE_FILE_MODE)
    return chosen.filePath
  }
}
