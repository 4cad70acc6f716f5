import { SCREENS } from '../../../shared/commands'

/** The screens of the sidebar, addressed by the URL fragment so reloads keep the place. */
export const VIEWS = SCREENS

/** One screen. */
export type View = (typeof VIEWS)[number]

/** The screen a URL fragment names (`#guarantees`), or the first one (the dashboard). */
export function viewOf(name: string): View {
  return (VIEWS as readonly string[]).includes(name) ? (name as View) : 'dashboard'
}
