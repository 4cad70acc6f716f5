import type { LinkDecision, LinkRefusal } from './policy'

/** Languages of the shell's own dialogs: Korean first, English second (as the renderer). */
export type DialogLocale = 'ko' | 'en'

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

const REFUSAL: Record<DialogLocale, Record<LinkRefusal, string>> = {
  ko: {
    not_url: '올바른 주소가 아닙니다.',
    scheme: 'https 주소만 열 수 있습니다.',
    credentials: '사용자 이름이나 비밀번호가 들어 있는 주소는 열지 않습니다.',
    host: '이 주소는 허용된 호스트(현재 계정의 서비스, 앱 안내 페이지)가 아닙니다.',
  },
  en: {
    not_url: 'This is not a valid address.',
    scheme: 'Only https addresses can be opened.',
    credentials: 'Addresses with a user name or password in them are not opened.',
    host: 'This host is not allowed (only the current account’s service and the app’s documentation).',
  },
}

/** Picks the dialog language from the OS locale: English only when the OS asks for it. */
export function dialogLocale(osLocale: string): DialogLocale {
  return /^en\b/i.test(osLocale) ? 'en' : 'ko'
}

/** The question before opening an allowlisted link; it names the host. */
export function linkQuestionText(host: string, locale: DialogLocale): LinkDialogText {
  return locale === 'ko'
    ? {
        title: '외부 링크 열기',
        message: `${host} 페이지를 브라우저에서 열까요?`,
        detail: `호스트: ${host}\n앱 밖의 기본 브라우저에서 열립니다.`,
        buttons: ['열기', '취소'],
        checkboxLabel: '앱을 끝낼 때까지 이 호스트는 다시 묻지 않기',
      }
    : {
        title: 'Open external link',
        message: `Open a page on ${host} in your browser?`,
        detail: `Host: ${host}\nIt opens in your default browser, outside the app.`,
        buttons: ['Open', 'Cancel'],
        checkboxLabel: 'Don’t ask again for this host until the app quits',
      }
}

/** The message shown when a link is refused, with the reason and the host when there is one. */
export function linkRefusalText(
  decision: Extract<LinkDecision, { action: 'refuse' }>,
  locale: DialogLocale,
): LinkDialogText {
  const reason = REFUSAL[locale][decision.reason]
  const host = decision.host === undefined ? '' : decision.host
  return locale === 'ko'
    ? {
        title: '링크를 열지 않음',
        message: '이 링크는 열 수 없습니다.',
        detail: host === '' ? reason : `${reason}\n호스트: ${host}`,
        buttons: ['확인'],
      }
    : {
        title: 'Link not opened',
        message: 'This link cannot be opened.',
        detail: host === '' ? reason : `${reason}\nHost: ${host}`,
        buttons: ['OK'],
      }
}
