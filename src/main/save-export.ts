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
 * null when cancelled.
 */
export function createSaveWithDialog(
  showSaveDialog: ShowSaveDialog,
): (fileName: string, text: string) => Promise<string | null> {
  return async (fileName, text) => {
    const chosen = await showSaveDialog({
      defaultPath: fileName,
      filters: [{ name: 'CSV', extensions: ['csv'] }],
    })
    if (chosen.canceled || !chosen.filePath) return null
    await writeFile(chosen.filePath, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE })
    await chmod(chosen.filePath, PRIVATE_FILE_MODE)
    return chosen.filePath
  }
}
