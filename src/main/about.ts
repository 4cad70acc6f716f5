import { message, type Locale } from '../shared/i18n'

/** The versions the About panel names (`process.versions` and `app.getVersion()`). */
interface AboutVersions {
  readonly app: string
  readonly electron: string
  readonly chrome: string
  readonly node: string
}

/** The About panel's lines, in the app's language: the app, Electron, Chromium and Node versions. */
export function aboutLines(locale: Locale, versions: AboutVersions): readonly string[] {
  return [
    message(locale, 'about.app', { version: versions.app }),
    `Electron ${versions.electron}`,
    `Chromium ${versions.chrome}`,
    `Node.js ${versions.node}`,
  ]
}

/**
 * Options of `app.setAboutPanelOptions` (macOS's standard About panel, the
 * app menu's About item). Elsewhere main shows the same lines in a dialog.
 */
export function aboutPanelOptions(
  locale: Locale,
  versions: AboutVersions,
): {
  applicationName: string
  applicationVersion: string
  version: string
  copyright: string
} {
  const [, ...runtime] = aboutLines(locale, versions)
  return {
    applicationName: 'Appraisal Desk',
    applicationVersion: versions.app,
    version: runtime.join(' · '),
    copyright: 'Copyright © 2026 Appraisal Desk',
  }
}
