/**
 * The one small interface core needs from a settings engine: atomic JSON
 * read and write of the whole document. `conf` implements it in tests and
 * the web host ({@link openConfFile}); `electron-store` (which wraps `conf`)
 * in the Electron shell (`src/main/settings-file.ts`). Schema, defaults and
 * migrations live in core ({@link openSettings}), so both engines behave
 * the same.
 */
export interface SettingsFile {
  /** Absolute path of the JSON file. */
  readonly path: string
  /** The whole document; throws when the file is not valid JSON. */
  read(): Record<string, unknown>
  /** Replaces the whole document (written atomically by the engine). */
  write(data: Record<string, unknown>): void
}

/** Opens (or creates) `<dir>/<name>.json` with one engine. */
export type OpenSettingsFile = (dir: string, name: string) => SettingsFile
