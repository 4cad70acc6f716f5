import { getContext, setContext } from 'svelte'
import type { ErrorData } from '../../../shared/errors'
import { DEFAULT_LOCALE, isLocale, type Locale } from '../../../shared/i18n'
import type { SettingsView, ThemeName } from '../../../shared/profiles'
import type { AgingRule } from '../../../shared/changes'
import type { LocaleStore } from './i18n.svelte'
import { THEME_STORAGE_KEY, parseTheme, resolveTheme, type ResolvedTheme } from './theme'
import type { Client } from './client'

const DARK_QUERY = '(prefers-color-scheme: dark)'

/** Where an earlier version kept the UI language; moved into the settings once. */
const OLD_LOCALE_KEY = 'appraisal-desk.locale'
/**
 * The language of the last settings answer, kept in local storage only so
 * the next start paints in it before the settings answer (no Korean flash
 * for an English user). The settings stay the truth: their answer wins.
 */
const LANGUAGE_HINT_KEY = 'appraisal-desk.language-hint'

/** The language the last run painted in, or Korean, the default. */
export function hintedLocale(): Locale {
  const hint = globalThis.localStorage?.getItem(LANGUAGE_HINT_KEY)
  return isLocale(hint) ? hint : DEFAULT_LOCALE
}

/**
 * The user's preferences kept in core settings (theme, language, reviewer's
 * name) and where the data is, for the whole app. The theme is also
 * remembered in local storage so the next start paints it before the
 * settings answer. The language lives in the settings, where the shell's
 * native dialogs read it too; local storage keeps only a hint of it for the
 * first frame ({@link LANGUAGE_HINT_KEY}).
 */
export class Preferences implements LocaleStore {
  view = $state.raw<SettingsView | null>(null)
  locale = $state<Locale>(hintedLocale())
  theme = $state<ThemeName>(parseTheme(globalThis.localStorage?.getItem(THEME_STORAGE_KEY)))
  systemDark = $state(globalThis.matchMedia?.(DARK_QUERY).matches ?? false)
  /** The error of the last save, if it failed. */
  error = $state.raw<ErrorData | null>(null)
  /** What is painted now. */
  readonly resolved: ResolvedTheme = $derived(resolveTheme(this.theme, this.systemDark))
  readonly #client: Client

  constructor(client: Client) {
    this.#client = client
  }

  /** Loads the settings and follows the OS theme; returns the cleanup (for `$effect`). */
  connect(): () => void {
    void this.#client.attempt('settings.get', {}).then((answer) => {
      if (answer.ok) this.#take(answer.value)
      if (answer.ok) this.#migrateLocale()
    })
    const media = globalThis.matchMedia?.(DARK_QUERY)
    const follow = (event: MediaQueryListEvent): void => {
      this.systemDark = event.matches
    }
    media?.addEventListener('change', follow)
    return () => media?.removeEventListener('change', follow)
  }

  /** Switches the UI language and keeps the choice in the settings. */
  setLocale(locale: Locale): void {
    void this.save({ language: locale })
  }

  /** Saves preferences; answers whether it worked (the error stays in `error`). */
  async save(change: {
    theme?: ThemeName
    language?: Locale
    reviewerName?: string
    agingDays?: Partial<Record<AgingRule, number>>
    lockIdleSeconds?: number
  }): Promise<boolean> {
    if (change.theme) this.theme = change.theme
    if (change.language) this.locale = change.language
    const answer = await this.#client.attempt('settings.set', change)
    this.error = answer.ok ? null : answer.error
    if (answer.ok) this.#take(answer.value)
    return answer.ok
  }

  #take(view: SettingsView): void {
    this.view = view
    this.theme = view.theme
    this.locale = view.language
    globalThis.localStorage?.setItem(THEME_STORAGE_KEY, view.theme)
    globalThis.localStorage?.setItem(LANGUAGE_HINT_KEY, view.language)
  }

  /** A language an earlier version kept in local storage goes into the settings, once. */
  #migrateLocale(): void {
    const storage = globalThis.localStorage
    const old = storage?.getItem(OLD_LOCALE_KEY)
    if (old === null || old === undefined) return
    storage.removeItem(OLD_LOCALE_KEY)
    if (isLocale(old) && old !== this.locale) this.setLocale(old)
  }
}

/** Paints `theme` on the document root (the CSS tokens key on `data-theme`). */
export function paintTheme(theme: ResolvedTheme): void {
  document.documentElement.dataset['theme'] = theme
}

const KEY = Symbol('preferences')

/** Provides the preferences to the component tree. */
export function setPreferences(preferences: Preferences): Preferences {
  return setContext(KEY, preferences)
}

/** The preferences of the nearest ancestor that set one. */
export function usePreferences(): Preferences {
  return getContext<Preferences>(KEY)
}
