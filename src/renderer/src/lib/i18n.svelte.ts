import { getContext, setContext } from 'svelte'
import { assertNever, type ErrorCode, type ErrorData } from '../../../shared/errors'

/** UI languages: Korean first (the users are Korean), English second. */
export type Locale = 'ko' | 'en'

const ko = {
  'app.title': 'Appraisal Desk',
  'app.subtitle': '감정·보증 업무',
  'nav.brands': '브랜드',
  'nav.section.work': '업무',
  'nav.inspections': '감정 내역',
  'nav.guarantees': '보증서',
  'list.search': '검색',
  'list.all': '전체',
  'list.noStatus': '상태 없음',
  'list.from': '등록일 시작',
  'list.to': '등록일 끝',
  'list.sort': '정렬',
  'list.sort.latest': '최신순',
  'list.sort.oldest': '오래된순',
  'list.reset': '필터 초기화',
  'list.count': '{total}건',
  'list.more': '더 보기',
  'list.loadingMore': '불러오는 중…',
  'list.end': '마지막 항목입니다.',
  'list.emptyFiltered': '조건에 맞는 항목이 없습니다.',
  'list.emptyFilteredHint': '검색어나 필터를 바꿔 보세요.',
  'list.neverSynced': '아직 이 기기에 저장된 자료가 없습니다.',
  'list.neverSyncedHint': '동기화하면 오프라인에서도 볼 수 있습니다.',
  'list.gone': '서비스 목록에서 사라짐',
  'list.timeZone': '시각은 서비스 기준({zone})',
  'sync.now': '동기화',
  'sync.cancel': '중지',
  'sync.running': '동기화 중 {fetched}/{total}',
  'sync.runningNoTotal': '동기화 중 {fetched}건',
  'sync.eta': '약 {s}초 남음',
  'sync.last': '마지막 동기화 {time}',
  'sync.never': '동기화한 적 없음',
  'sync.failed': '마지막 동기화 실패',
  'sync.skipped': '필수 항목이 빠진 {n}건은 건너뜀',
  'inspections.title': '감정 내역',
  'inspections.lead': '파트너 몰에서 접수된 감정(검수) 요청과 결과입니다.',
  'inspections.searchPlaceholder': '상품명, 검수번호, 회원 ID, 주문번호',
  'inspections.col.num': '검수번호',
  'inspections.col.product': '상품명',
  'inspections.col.status': '진행 상태',
  'inspections.col.result': '감정 결과',
  'inspections.col.member': '회원 ID',
  'inspections.col.registered': '접수일시',
  'guarantees.title': '보증서',
  'guarantees.lead': '판매한 상품에 발급된 디지털 보증서와 카드 이미지입니다.',
  'guarantees.searchPlaceholder': '상품명, 회원 ID, 주문번호, 상품·브랜드 코드',
  'guarantees.col.card': '카드',
  'guarantees.col.idx': '보증서 번호',
  'guarantees.col.product': '상품명',
  'guarantees.col.status': '발급 상태',
  'guarantees.col.member': '회원 ID',
  'guarantees.col.registered': '등록일시',
  'detail.close': '닫기',
  'detail.inspection': '감정 상세',
  'detail.guarantee': '보증서 상세',
  'detail.idx': '일련번호',
  'detail.inspectionNum': '검수번호',
  'detail.status': '상태',
  'detail.result': '감정 결과',
  'detail.product': '상품명',
  'detail.member': '회원 ID',
  'detail.order': '주문번호',
  'detail.orderLine': '주문 상세번호',
  'detail.productCode': '상품 코드',
  'detail.categoryCode': '카테고리 코드',
  'detail.brandCode': '브랜드 코드',
  'detail.registered': '등록일시',
  'detail.modified': '수정일시',
  'detail.notModified': '수정 없음',
  'detail.none': '없음',
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
  'nav.section.work': 'Work',
  'nav.inspections': 'Inspections',
  'nav.guarantees': 'Guarantees',
  'list.search': 'Search',
  'list.all': 'All',
  'list.noStatus': 'No status',
  'list.from': 'Registered from',
  'list.to': 'Registered to',
  'list.sort': 'Sort',
  'list.sort.latest': 'Newest first',
  'list.sort.oldest': 'Oldest first',
  'list.reset': 'Clear filters',
  'list.count': '{total} records',
  'list.more': 'Load more',
  'list.loadingMore': 'Loading…',
  'list.end': 'That is everything.',
  'list.emptyFiltered': 'Nothing matches these filters.',
  'list.emptyFilteredHint': 'Change the search text or the filters.',
  'list.neverSynced': 'Nothing is stored on this computer yet.',
  'list.neverSyncedHint': 'Sync once and the list works offline too.',
  'list.gone': 'No longer returned by the service',
  'list.timeZone': 'Times are the service’s ({zone})',
  'sync.now': 'Sync',
  'sync.cancel': 'Stop',
  'sync.running': 'Syncing {fetched}/{total}',
  'sync.runningNoTotal': 'Syncing {fetched}',
  'sync.eta': 'about {s} s left',
  'sync.last': 'Last sync {time}',
  'sync.never': 'Never synced',
  'sync.failed': 'Last sync failed',
  'sync.skipped': '{n} records without required fields skipped',
  'inspections.title': 'Inspections',
  'inspections.lead': 'Appraisal requests received from the shop, and their results.',
  'inspections.searchPlaceholder': 'Product, inspection no., member ID, order no.',
  'inspections.col.num': 'Inspection no.',
  'inspections.col.product': 'Product',
  'inspections.col.status': 'Progress',
  'inspections.col.result': 'Result',
  'inspections.col.member': 'Member ID',
  'inspections.col.registered': 'Received',
  'guarantees.title': 'Guarantees',
  'guarantees.lead':
    'Digital guarantee certificates issued for sold goods, with their card images.',
  'guarantees.searchPlaceholder': 'Product, member ID, order no., product or brand code',
  'guarantees.col.card': 'Card',
  'guarantees.col.idx': 'Guarantee no.',
  'guarantees.col.product': 'Product',
  'guarantees.col.status': 'Issuance',
  'guarantees.col.member': 'Member ID',
  'guarantees.col.registered': 'Registered',
  'detail.close': 'Close',
  'detail.inspection': 'Inspection',
  'detail.guarantee': 'Guarantee',
  'detail.idx': 'Serial no.',
  'detail.inspectionNum': 'Inspection no.',
  'detail.status': 'Status',
  'detail.result': 'Result',
  'detail.product': 'Product',
  'detail.member': 'Member ID',
  'detail.order': 'Order no.',
  'detail.orderLine': 'Order line no.',
  'detail.productCode': 'Product code',
  'detail.categoryCode': 'Category code',
  'detail.brandCode': 'Brand code',
  'detail.registered': 'Registered',
  'detail.modified': 'Modified',
  'detail.notModified': 'Never modified',
  'detail.none': 'None',
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
