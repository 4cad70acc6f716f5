import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { openConfFile, settingsStoreOptions } from '../../../src/core/settings/conf-file'
import { PRIVATE_FILE_MODE } from '../../../src/core/fs-private'
import { SETTINGS_VERSION, SettingsService } from '../../../src/core/settings/settings'

/** electron-store replaced by a recorder of its options (it needs Electron's `app`). */
const storeOptions: unknown[] = []
vi.mock('electron-store', () => ({
  default: class {
    readonly path = '/fake/settings.json'
    store = {}
    constructor(options: unknown) {
      storeOptions.push(options)
    }
  },
}))

describe('the settings engines', () => {
  it('open their file with one options object (electron-store names it with `name`)', async () => {
    const { openElectronStoreFile } = await import('../../../src/main/settings-file')
    openElectronStoreFile('/data', 'settings')
    const { configName, ...shared } = settingsStoreOptions('/data', 'settings')
    expect(storeOptions[0]).toEqual({ ...shared, name: configName })
    expect(shared).toMatchObject({
      clearInvalidConfig: false,
      configFileMode: PRIVATE_FILE_MODE,
      accessPropertiesByDotNotation: false,
    })
  })

  it('under conf: a version-1 file is migrated to the current schema version and rewritten owner-only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ad-settings-'))
    const path = join(dir, 'settings.json')
    writeFileSync(path, JSON.stringify({ schemaVersion: 1, activeProfileId: null, profiles: [] }), {
      mode: 0o644,
    })
    const settings = SettingsService.open({
      dataDir: dir,
      open: openConfFile,
      now: () => new Date('2026-11-20T00:00:00Z'),
      log: () => undefined,
    })
    settings.update((draft) => {
      draft.reviewerName = 'Kim'
    })
    const stored = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
    expect(stored['schemaVersion']).toBe(SETTINGS_VERSION)
    expect(stored['reviewerName']).toBe('Kim')
    // conf's own bookkeeping never enters the document core validates.
    expect(Object.keys(stored)).not.toContain('__internal__')
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(PRIVATE_FILE_MODE)
  })
})
