import type { MessageBoxOptions, MessageBoxReturnValue, Shell } from 'electron'
import { decideExternalLink } from '../core/security/policy'
import {
  linkQuestionText,
  linkRefusalText,
  type DialogLocale,
  type LinkDialogText,
} from '../core/security/link-messages'

/** What the shell needs to open links: Electron's dialog and shell, and where links may go. */
export interface ExternalLinkDeps {
  /** `dialog.showMessageBox`, bound to the window the link came from. */
  readonly showMessageBox: (options: MessageBoxOptions) => Promise<MessageBoxReturnValue>
  readonly openExternal: Shell['openExternal']
  /** The allowlisted origins now (they follow the active profile). */
  readonly origins: () => readonly string[]
  readonly locale: () => DialogLocale
  /** Secret-free log lines: only the host is ever logged, never the URL. */
  readonly log: (message: string) => void
}

/** What became of one link. */
export type LinkOutcome = 'opened' | 'declined' | 'refused' | 'busy'

/**
 * Opens links from `setWindowOpenHandler` in the system browser as
 * {@link decideExternalLink} decides: asks first, naming the host, and
 * explains a refusal. One dialog at a time: a page calling `window.open` in
 * a loop gets its extra links dropped, not a stack of dialogs.
 */
export function createExternalLinkOpener(
  deps: ExternalLinkDeps,
): (url: string) => Promise<LinkOutcome> {
  const confirmed = new Set<string>()
  let dialogOpen = false

  const show = async (text: LinkDialogText, type: 'question' | 'warning') => {
    dialogOpen = true
    try {
      return await deps.showMessageBox({
        type,
        title: text.title,
        message: text.message,
        detail: text.detail,
        buttons: [...text.buttons],
        defaultId: type === 'question' ? 1 : 0,
        cancelId: type === 'question' ? 1 : 0,
        noLink: true,
        ...(text.checkboxLabel
          ? { checkboxLabel: text.checkboxLabel, checkboxChecked: false }
          : {}),
      })
    } finally {
      dialogOpen = false
    }
  }

  return async (url) => {
    const decision = decideExternalLink(url, { origins: deps.origins(), confirmed })
    if (dialogOpen) {
      deps.log(
        `[links] dropped a link to ${decision.host ?? 'an invalid address'} while a dialog is open`,
      )
      return 'busy'
    }
    if (decision.action === 'refuse') {
      deps.log(
        `[links] refused a link to ${decision.host ?? 'an invalid address'} (${decision.reason})`,
      )
      await show(linkRefusalText(decision, deps.locale()), 'warning')
      return 'refused'
    }
    if (decision.action === 'ask') {
      const answer = await show(linkQuestionText(decision.host, deps.locale()), 'question')
      if (answer.response !== 0) return 'declined'
      if (answer.checkboxChecked) confirmed.add(new URL(decision.url).origin)
    }
    await deps.openExternal(decision.url)
    return 'opened'
  }
}
