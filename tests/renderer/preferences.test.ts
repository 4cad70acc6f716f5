import { DEFAULT_NOTIFICATION_SETTINGS } from '../../src/shared/notifications'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { AppApi } from '../../src/shared/contract'
import type { Locale } from '../../src/shared/i18n'
import type { SettingsView } from '../../src/shared/profiles'
import { I18n } from '../../src/renderer/src/lib/i18n.svelte'
import { Preferences } from '../../src/renderer/src/lib/preferences.svelte'
import { createClient } from '../../src/renderer/src/lib/client'

/**
 * A small stand-in for core's two settings channels (a fake: the real ones
 * are covered by the core settings tests and the end-to-end suite). It keeps
 * one settings view and records each `settings.set`.
 */
function settingsApi(language: Locale) {
  let view: SettingsView = {
    notices: [],
    path: '/data/settings.json',
    dataDir: '/data',
    theme: 'system',
    language,
    reviewerName: '',
    agingDays: { guaranteeReady: 3, inspectionShipping: 7 },
    live: { intervalMinutes: 2, windowDays: 30, allAccounts: false },
    notifications: DEFAULT_NOTIFICATION_SETTINGS,
    desktop: { closeToTray: false, startAtLogin: false },
    lockIdleSeconds: 600,
    sidebarCollapsed: false,
  }
  const sets: unknown[] = []
  const invoke = async (channel: string, args: Record<string, unknown>) => {
    if (channel === 'settings.set') {
      sets.push(args)
      view = { ...view, ...args }
    }
    return { ok: true, value: view }
  }
  const api = { invoke, on: () => () => {} } as unknown as AppApi
  return { api, sets, current: () => view.language }
}

afterEach(() => localStorage.clear())

describe('the UI language lives in the settings', () => {
  it('is read from the settings at start, and a switch is saved there', async () => {
    const fake = settingsApi('en')
    const preferences = new Preferences(createClient(fake.api))
    const i18n = new I18n(preferences)
    expect(i18n.locale).toBe('ko')
    preferences.connect()
    await vi.waitFor(() => expect(i18n.locale).toBe('en'))
    expect(i18n.t('nav.settings')).toBe('Settings')
    i18n.setLocale('ko')
    expect(i18n.t('nav.settings')).toBe('설정')
    await vi.waitFor(() => expect(fake.current()).toBe('ko'))
    expect(fake.sets).toEqual([{ language: 'ko' }])
  })

  it('the next start paints in the last answer’s language before the settings answer; the answer wins', async () => {
    const english = settingsApi('en')
    const first = new Preferences(createClient(english.api))
    first.connect()
    await vi.waitFor(() => expect(first.locale).toBe('en'))

    // The next start: English from the first frame, and the settings (Korean now) still decide.
    const korean = settingsApi('ko')
    const next = new Preferences(createClient(korean.api))
    expect(new I18n(next).t('nav.settings')).toBe('Settings')
    next.connect()
    await vi.waitFor(() => expect(next.locale).toBe('ko'))
    expect(new Preferences(createClient(korean.api)).locale).toBe('ko')
    expect(korean.sets).toEqual([])
  })

  it('a language an earlier version left in local storage moves into the settings once', async () => {
    localStorage.setItem('appraisal-desk.locale', 'en')
    const fake = settingsApi('ko')
    const first = new Preferences(createClient(fake.api))
    first.connect()
    await vi.waitFor(() => expect(fake.current()).toBe('en'))
    expect(first.locale).toBe('en')
    expect(localStorage.getItem('appraisal-desk.locale')).toBeNull()
    const again = new Preferences(createClient(fake.api))
    again.connect()
    await vi.waitFor(() => expect(again.locale).toBe('en'))
    expect(fake.sets).toEqual([{ language: 'en' }])
  })

  it('an unknown stored value is dropped without changing the settings', async () => {
    localStorage.setItem('appraisal-desk.locale', 'fr')
    const fake = settingsApi('ko')
    const preferences = new Preferences(createClient(fake.api))
    preferences.connect()
    await vi.waitFor(() => expect(localStorage.getItem('appraisal-desk.locale')).toBeNull())
    expect(fake.sets).toEqual([])
    expect(preferences.locale).toBe('ko')
  })
})
