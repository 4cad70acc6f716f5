import { THEMES, type ThemeName } from '../../../shared/profiles'

/** A theme as painted: what `system` resolves to. */
export type ResolvedTheme = 'light' | 'dark'

/** Where the last resolved preference is remembered, so the next start paints it before settings load. */
export const THEME_STORAGE_KEY = 'appraisal-desk.theme'

/** What a preference paints: `system` follows the OS setting (`prefers-color-scheme`). */
export function resolveTheme(preference: ThemeName, systemDark: boolean): ResolvedTheme {
  switch (preference) {
    case 'light':
    case 'dark':
      return preference
    case 'system':
      return systemDark ? 'dark' : 'light'
  }
}

/** Reads a stored preference; anything unknown (or nothing) follows the system. */
export function parseTheme(value: unknown): ThemeName {
  return (THEMES as readonly unknown[]).includes(value) ? (value as ThemeName) : 'system'
}
