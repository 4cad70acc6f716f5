import { getContext, setContext } from 'svelte'
import { assertNever, type ErrorCode, type ErrorData } from '../../../shared/errors'

/** UI languages: Korean first (the users are Korean), English second. */
export type Locale = 'ko' | 'en'

const ko = {
  'app.title': 'Appraisal Desk',
  'app.subtitle': '감정·보증 업무',
  'nav.brands': '브랜드',
  'nav.section.reference': '참고 자료',
  'profile.sandbox': '샌드박스',
  'profile.demo': '데모 데이터',
  'brands.title': '럭셔리 브랜드',
  'brands.lead':
    '서비스가 인식하는 브랜드 목록입니다. 한글, 초성(ㄹㅇㅂㅌ), 영문으로 찾을 수 있습니다.',
  'brands.search': '브랜드 검색',
  'brands.searchPlaceholder': '예: 샤넬, ㅅㄴ, chanel',
  'brands.count': '전체 {total}개 중 {shown}개',
  'brands.countAll': '전체 {total}개',
  'brands.col.idx': '번호',
  'brands.col.name': '브랜드명',
  'brands.col.english': '영문명',
  'brands.sameName': '동명 {n}',
  'brands.sameNameTitle': '같은 한글 이름을 쓰는 브랜드가 {n}개 있습니다',
  'brands.empty': '‘{query}’와 일치하는 브랜드가 없습니다.',
  'brands.emptyHint': '철자를 확인하거나 초성·영문으로 찾아 보세요.',
  'brands.refresh': '새로 고침',
  'brands.refreshing': '불러오는 중…',
  'brands.loading': '브랜드 목록을 불러오는 중…',
  'fresh.at': '{time} 기준',
  'fresh.never': '아직 동기화하지 않음',
  'fresh.stale': '오프라인 사본 표시 중',
  'lang.toggle': 'English',
  'common.retry': '다시 시도',
  'error.title': '문제가 생겼습니다',
  'error.invalid_argument': '요청 값이 올바르지 않습니다.',
  'error.unknown_channel': '앱 내부 요청이 잘못되었습니다.',
  'error.forbidden_sender': '이 창에서는 요청할 수 없습니다. 앱을 다시 여세요.',
  'error.auth': 'API 키 또는 시크릿이 거부되었습니다. 계정 정보를 다시 입력하세요.',
  'error.forbidden': '이 API 키로는 해당 파트너에 접근할 수 없습니다.',
  'error.not_found': '요청한 자료를 찾을 수 없습니다.',
  'error.bad_request': '서비스가 요청 값을 거부했습니다.',
  'error.rate_limited': '요청이 너무 많습니다. 잠시 후 다시 시도하세요.',
  'error.server': '파트너 API를 사용할 수 없습니다. 저장된 사본을 보여 줍니다.',
  'error.network': '파트너 API에 연결할 수 없습니다. 네트워크를 확인하세요.',
  'error.timeout': '파트너 API가 제시간에 응답하지 않았습니다.',
  'error.tls': '서비스의 보안 인증서를 신뢰할 수 없습니다.',
  'error.bad_response': '서비스가 예상과 다른 응답을 보냈습니다.',
  'error.too_large': '응답이 너무 큽니다.',
  'error.pagination_stuck': '서비스가 같은 페이지를 반복해 보냈습니다.',
  'error.cancelled': '취소되었습니다.',
  'error.no_credentials': '이 계정에 저장된 API 키가 없습니다.',
  'error.keychain_unavailable': 'OS 키체인을 사용할 수 없습니다.',
  'error.keychain_locked': '키체인이 잠겨 있습니다. 잠금을 해제한 뒤 다시 시도하세요.',
  'error.store_corrupt': '로컬 캐시가 손상되어 새로 만들었습니다.',
  'error.disk_full': '디스크 공간이 부족합니다.',
  'error.store_busy': '다른 앱 창이 로컬 캐시를 사용 중입니다.',
  'error.internal': '예상하지 못한 오류가 발생했습니다.',
} as const

/** A message key. */
export type MessageKey = keyof typeof ko

const en: Record<MessageKey, string> = {
  'app.title': 'Appraisal Desk',
  'app.subtitle': 'Appraisal & guarantees',
  'nav.brands': 'Brands',
  'nav.section.reference': 'Reference',
  'profile.sandbox': 'Sandbox',
  'profile.demo': 'Demo data',
  'brands.title': 'Luxury brands',
  'brands.lead':
    'The brands the service knows. Search in Korean, by initial consonants (ㄹㅇㅂㅌ), or in English.',
  'brands.search': 'Search brands',
  'brands.searchPlaceholder': 'e.g. 샤넬, ㅅㄴ, chanel',
  'brands.count': '{shown} of {total}',
  'brands.countAll': '{total} brands',
  'brands.col.idx': 'No.',
  'brands.col.name': 'Korean name',
  'brands.col.english': 'English name',
  'brands.sameName': '{n} share name',
  'brands.sameNameTitle': '{n} brands share this Korean name',
  'brands.empty': 'No brand matches “{query}”.',
  'brands.emptyHint': 'Check the spelling, or try initial consonants or English.',
  'brands.refresh': 'Refresh',
  'brands.refreshing': 'Loading…',
  'brands.loading': 'Loading the brand list…',
  'fresh.at': 'as of {time}',
  'fresh.never': 'not synced yet',
  'fresh.stale': 'showing offline copy',
  'lang.toggle': '한국어',
  'common.retry': 'Retry',
  'error.title': 'Something went wrong',
  'error.invalid_argument': 'The request was not valid.',
  'error.unknown_channel': 'The app sent an unknown request.',
  'error.forbidden_sender': 'This window may not make requests. Reopen the app.',
  'error.auth': 'The API key or secret was rejected. Enter the credentials again.',
  'error.forbidden': 'This API key may not access that partner.',
  'error.not_found': 'Not found.',
  'error.bad_request': 'The service rejected a parameter.',
  'error.rate_limited': 'Too many requests. Try again shortly.',
  'error.server': 'Partner API unavailable. Showing the saved copy.',
  'error.network': "Can't reach partner API. Check the network.",
  'error.timeout': 'The partner API did not answer in time.',
  'error.tls': "The service's security certificate is not trusted.",
  'error.bad_response': 'The service sent an unexpected answer.',
  'error.too_large': 'The answer is too large.',
  'error.pagination_stuck': 'The service kept sending the same page.',
  'error.cancelled': 'Cancelled.',
  'error.no_credentials': 'No API key is stored for this account.',
  'error.keychain_unavailable': 'The OS keychain is not available.',
  'error.keychain_locked': 'The keychain is locked. Unlock it and try again.',
  'error.store_corrupt': 'The local cache was damaged and has been rebuilt.',
  'error.disk_full': 'The disk is full.',
  'error.store_busy': 'Another copy of the app is using the local cache.',
  'error.internal': 'An unexpected error occurred.',
}

const catalogs: Record<Locale, Record<MessageKey, string>> = { ko, en }
const STORAGE_KEY = 'appraisal-desk.locale'

/** The UI language and message lookup, shared through context. */
export class I18n {
  locale = $state<Locale>('ko')

  constructor() {
    const saved = globalThis.localStorage?.getItem(STORAGE_KEY)
    if (saved === 'ko' || saved === 'en') this.locale = saved
  }

  /** Switches language and remembers the choice. */
  setLocale(locale: Locale): void {
    this.locale = locale
    globalThis.localStorage?.setItem(STORAGE_KEY, locale)
    document.documentElement.lang = locale
  }

  /** The message for `key` in the current language, with `{name}` placeholders filled. */
  t = (key: MessageKey, values: Record<string, string | number> = {}): string => {
    const template = catalogs[this.locale][key]
    return template.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`))
  }

  /** The user-facing sentence for an error, by code (exhaustive). */
  errorText = (error: ErrorData): string => this.t(errorKey(error.code))
}

/** Maps every error code to its message key; the compiler checks that none is missing. */
export function errorKey(code: ErrorCode): MessageKey {
  switch (code) {
    case 'invalid_argument':
    case 'unknown_channel':
    case 'forbidden_sender':
    case 'auth':
    case 'forbidden':
    case 'not_found':
    case 'bad_request':
    case 'rate_limited':
    case 'server':
    case 'network':
    case 'timeout':
    case 'tls':
    case 'bad_response':
    case 'too_large':
    case 'pagination_stuck':
    case 'cancelled':
    case 'no_credentials':
    case 'keychain_unavailable':
    case 'keychain_locked':
    case 'store_corrupt':
    case 'disk_full':
    case 'store_busy':
    case 'internal':
      return `error.${code}`
    default:
      return assertNever(code)
  }
}

const KEY = Symbol('i18n')

/** Provides the i18n object to the component tree. */
export function setI18n(i18n: I18n): I18n {
  return setContext(KEY, i18n)
}

/** The i18n object of the nearest ancestor that set one. */
export function useI18n(): I18n {
  return getContext<I18n>(KEY)
}
