import { closeToTrayDefault } from '../../../src/shared/profiles'
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../src/shared/notifications'
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openConfFile } from '../../../src/core/settings/conf-file'
import {
  SETTINGS_VERSION,
  SettingsService,
  migrateSettings,
  type SettingsMigration,
} from '../../../src/core/settings/settings'

const fixedNow = () => new Date('2026-11-22T01:02:03.456Z')
const profile = {
  id: 'p-abc',
  name: '본점',
  baseUrl: 'https://partner.example.com',
  staticUrl: 'https://static.example.com',
  partnerId: 'shop-1',
  redirectUri: 'https://shop.example.com/done',
  timeZone: 'Asia/Seoul',
  timeoutSeconds: 45,
  kind: 'test' as const,
}

function open(dataDir: string): { settings: SettingsService; logs: string[] } {
  const logs: string[] = []
  const settings = SettingsService.open({
    dataDir,
    open: openConfFile,
    now: fixedNow,
    log: (line) => logs.push(line),
  })
  return { settings, logs }
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'settings-'))
}

describe('settings (conf engine, real files)', () => {
  it('first run: the Sandbox profile is active and no profile is stored', () => {
    const dir = tempDir()
    const { settings } = open(dir)
    expect(settings.get()).toEqual({
      schemaVersion: SETTINGS_VERSION,
      activeProfileId: 'sandbox',
      profiles: [],
      reviewerName: '',
      walletTimeoutMinutes: 10,
      theme: 'system',
      language: 'ko',
      agingDays: { guaranteeReady: 3, inspectionShipping: 7 },
      live: { intervalMinutes: 2, windowDays: 30, allAccounts: false },
      lockIdleSeconds: 600,
      lockPinSet: false,
      sidebarCollapsed: false,
      desktop: { closeToTray: closeToTrayDefault(process.platform), startAtLogin: false },
      notifications: DEFAULT_NOTIFICATION_SETTINGS,
      savedViews: [],
      lastFilters: {},
    })
    expect(settings.notices).toEqual([])
  })

  it('keeps profiles and the last used one across restarts', () => {
    const dir = tempDir()
    open(dir).settings.update((draft) => {
      draft.profiles.push(profile)
      draft.activeProfileId = 'p-abc'
    })
    const again = open(dir).settings.get()
    expect(again.activeProfileId).toBe('p-abc')
    expect(again.profiles).toEqual([profile])
  })

  it('a profile stored before the request deadline existed (or with a bad one) gets the 30 s default', () => {
    const dir = tempDir()
    const { timeoutSeconds: _, ...older } = profile
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        schemaVersion: 1,
        activeProfileId: 'p-abc',
        profiles: [older, { ...older, id: 'p-bad', timeoutSeconds: -3 }],
      }),
    )
    const { settings } = open(dir)
    expect(settings.get().profiles.map((p) => p.timeoutSeconds)).toEqual([30, 30])
    expect(settings.notices).toEqual([])
  })

  it('a damaged file is kept aside, settings reset with a notice, and the app starts', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'settings.json'), '{"schemaVersion": 1, "profiles": [')
    const { settings, logs } = open(dir)
    expect(settings.get().activeProfileId).toBe('sandbox')
    const keptAs = 'settings.corrupt-2026-11-22T01-02-03-456Z.json'
    expect(settings.notices).toEqual([{ kind: 'settings_reset', keptAs }])
    expect(readFileSync(join(dir, keptAs), 'utf8')).toBe('{"schemaVersion": 1, "profiles": [')
    expect(logs.join('\n')).toContain(keptAs)
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8'))).toMatchObject({
      schemaVersion: SETTINGS_VERSION,
    })
  })

  it('a file that fails the schema is kept aside too', () => {
    const dir = tempDir()
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ schemaVersion: 1, profiles: 'nope' }),
    )
    const { settings } = open(dir)
    expect(settings.notices[0]?.kind).toBe('settings_reset')
    expect(settings.get().profiles).toEqual([])
  })

  it('a file from a newer app version is kept aside, not downgraded', () => {
    const dir = tempDir()
    writeFileSync(join(dir, 'settings.json'), JSON.stringify({ schemaVersion: 99, future: true }))
    const { settings } = open(dir)
    expect(settings.notices).toEqual([
      { kind: 'settings_newer', keptAs: 'settings.newer-2026-11-22T01-02-03-456Z.json' },
    ])
    expect(readdirSync(dir).sort()).toEqual([
      'settings.json',
      'settings.newer-2026-11-22T01-02-03-456Z.json',
    ])
  })

  it('migrates an unversioned file (0 → 2), filling the default time zone and kind', () => {
    const dir = tempDir()
    const { timeZone: _dropped, kind: _kind, ...withoutZone } = profile
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ activeProfileId: 'p-abc', profiles: [withoutZone] }),
    )
    const { settings } = open(dir)
    expect(settings.notices).toEqual([])
    expect(settings.get()).toEqual({
      schemaVersion: 2,
      activeProfileId: 'p-abc',
      profiles: [{ ...withoutZone, timeZone: 'Asia/Seoul', kind: 'production' }],
      reviewerName: '',
      walletTimeoutMinutes: 10,
      theme: 'system',
      language: 'ko',
      agingDays: { guaranteeReady: 3, inspectionShipping: 7 },
      live: { intervalMinutes: 2, windowDays: 30, allAccounts: false },
      lockIdleSeconds: 600,
      lockPinSet: false,
      sidebarCollapsed: false,
      desktop: { closeToTray: closeToTrayDefault(process.platform), startAtLogin: false },
      notifications: DEFAULT_NOTIFICATION_SETTINGS,
      savedViews: [],
      lastFilters: {},
    })
    expect(JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')).schemaVersion).toBe(2)
  })

  it('migrates a version 1 file (1 → 2): profiles become production, the theme follows the system', () => {
    const dir = tempDir()
    const { kind: _kind, ...v1Profile } = profile
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        schemaVersion: 1,
        activeProfileId: 'p-abc',
        profiles: [v1Profile],
        reviewerName: '김감정',
      }),
    )
    const { settings } = open(dir)
    expect(settings.notices).toEqual([])
    expect(settings.get()).toEqual({
      schemaVersion: 2,
      activeProfileId: 'p-abc',
      profiles: [{ ...v1Profile, kind: 'production' }],
      reviewerName: '김감정',
      walletTimeoutMinutes: 10,
      theme: 'system',
      language: 'ko',
      agingDays: { guaranteeReady: 3, inspectionShipping: 7 },
      live: { intervalMinutes: 2, windowDays: 30, allAccounts: false },
      lockIdleSeconds: 600,
      lockPinSet: false,
      sidebarCollapsed: false,
      desktop: { closeToTray: closeToTrayDefault(process.platform), startAtLogin: false },
      notifications: DEFAULT_NOTIFICATION_SETTINGS,
      savedViews: [],
      lastFilters: {},
    })
  })

  it('keeps the sidebar collapsed across restarts; an unreadable value leaves it open', () => {
    const dir = tempDir()
    open(dir).settings.update((draft) => {
      draft.sidebarCollapsed = true
    })
    expect(open(dir).settings.get().sidebarCollapsed).toBe(true)
    const file = join(dir, 'settings.json')
    writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), sidebarCollapsed: 'yes' }),
    )
    const reopened = open(dir).settings
    expect(reopened.get().sidebarCollapsed).toBe(false)
    expect(reopened.get().reviewerName).toBe('')
  })

  it('keeps the theme across restarts; an unreadable theme or kind falls back without losing the rest', () => {
    const dir = tempDir()
    open(dir).settings.update((draft) => {
      draft.theme = 'dark'
      draft.profiles.push(profile)
    })
    expect(open(dir).settings.get().theme).toBe('dark')
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        schemaVersion: 2,
        activeProfileId: 'p-abc',
        profiles: [{ ...profile, kind: 'staging' }],
        theme: 'purple',
      }),
    )
    const { settings } = open(dir)
    expect(settings.notices).toEqual([])
    expect(settings.get().theme).toBe('system')
    expect(settings.get().profiles).toEqual([{ ...profile, kind: 'production' }])
  })

  it('keeps the UI language across restarts; a file without one, or with an unknown one, gets Korean', () => {
    const dir = tempDir()
    open(dir).settings.update((draft) => {
      draft.language = 'en'
    })
    expect(open(dir).settings.get().language).toBe('en')
    for (const language of [undefined, 'fr', 42]) {
      writeFileSync(
        join(dir, 'settings.json'),
        JSON.stringify({ schemaVersion: 2, theme: 'dark', language }),
      )
      const { settings } = open(dir)
      expect(settings.notices).toEqual([])
      expect(settings.get()).toMatchObject({ language: 'ko', theme: 'dark' })
    }
  })

  it('applies numbered migrations in order', () => {
    const steps: SettingsMigration[] = [
      { to: 2, migrate: (doc) => ({ ...doc, trail: `${String(doc['trail'])}>2` }) },
      { to: 1, migrate: (doc) => ({ ...doc, trail: 'start>1' }) },
    ]
    expect(migrateSettings({}, steps, 2)).toEqual({ schemaVersion: 2, trail: 'start>1>2' })
  })

  it('never keeps a secret in the file, even one written into it by hand', () => {
    const dir = tempDir()
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({
        schemaVersion: 2,
        activeProfileId: 'p-abc',
        apiSecret: 'handwritten_secret_1',
        profiles: [{ ...profile, apiKey: 'handwritten_key_1', apiSecret: 'handwritten_secret_2' }],
      }),
    )
    open(dir)
    const text = readFileSync(join(dir, 'settings.json'), 'utf8')
    expect(text).not.toMatch(/handwritten/)
    expect(JSON.parse(text).profiles).toEqual([profile])
  })
})
