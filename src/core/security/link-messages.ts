import { message, type Locale } from '../../shared/i18n'
import type { LinkDecision } from './policy'

/** Languages of the shell's own dialogs: the app's chosen language (settings). */
export type DialogLocale = Locale

/** The text of one native message box, in the user's language. */
export interface LinkDialogText {
  readonly title: string
  readonly message: string
  readonly detail: string
  /** Button labels; for a question the first one opens the link. */
  readonly buttons: readonly string[]
  /** For a question: the "don't ask again for this host" checkbox. */
  readonly checkboxLabel?: string
}

/** The question before opening an allowlisted link; it names the host. */
export function linkQuestionText(host: string, locale: DialogLocale): LinkDialogText {
  return {
    title: message(locale, 'link.question.title'),
    message: message(locale, 'link.question.message', { host }),
    detail: message(locale, 'link.question.detail', { host }),
    buttons: [message(locale, 'link.question.open'), message(locale, 'link.question.cancel')],
    checkboxLabel: message(locale, 'link.question.dontAsk'),
  }
}

/** The message shown when a link is refused, with the reason and the host when there is one. */
export function linkRefusalText(
  decision: Extract<LinkDecision, { action: 'refuse' }>,
  locale: DialogLocale,
): LinkDialogText {
  const reason = message(locale, `link.refusal.${decision.reason}`)
  const host = decision.host === undefined ? '' : decision.host
  return {
    title: message(locale, 'link.refused.title'),
    message: message(locale, 'link.refused.message'),
    detail: host === '' ? reason : message(locale, 'link.refused.host', { reason, host }),
    buttons: [message(locale, 'link.refused.ok')],
  }
}
