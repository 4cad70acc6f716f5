import { createContext } from 'svelte'
import { assertNever, type ErrorCode, type ErrorData } from '../../../shared/errors'
import { enReview, koReview } from './messages-review'

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
  'sync.queued': '동기화 대기 중',
  'list.syncing': '동기화 중입니다.',
  'list.syncingHint': '잠시 후 목록이 채워집니다.',
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
  'nav.accounts': '계정',
  'nav.section.settings': '설정',
  'accounts.title': '파트너 계정',
  'accounts.lead':
    '연결할 파트너 계정을 관리합니다. API 키와 시크릿은 OS 키체인에만 저장되며 화면에는 다시 표시되지 않습니다.',
  'accounts.add': '계정 추가',
  'accounts.active': '사용 중',
  'accounts.use': '이 계정 사용',
  'accounts.test': '연결 테스트',
  'accounts.testing': '확인 중…',
  'accounts.edit': '편집',
  'accounts.setKey': '키 입력',
  'accounts.replaceKey': '키 변경',
  'accounts.remove': '삭제',
  'accounts.demoNote': '내장 샌드박스의 데모 데이터입니다. 실제 고객 정보가 아닙니다.',
  'accounts.field.name': '표시 이름',
  'accounts.field.baseUrl': '서비스 주소 (base URL)',
  'accounts.field.staticUrl': '이미지 호스트 (static URL)',
  'accounts.field.partnerId': '파트너 ID',
  'accounts.field.redirectUri': '지갑 연동 후 이동할 주소 (redirectUri)',
  'accounts.field.timeZone': '서비스 시각의 시간대',
  'accounts.field.apiKey': 'API 키',
  'accounts.field.apiSecret': 'API 시크릿',
  'accounts.keyHint': '비워 두면 저장된 값을 그대로 둡니다.',
  'accounts.formAdd': '새 계정',
  'accounts.formEdit': '계정 편집',
  'accounts.formKey': '‘{name}’의 API 키와 시크릿',
  'accounts.save': '저장',
  'accounts.saving': '저장 중…',
  'accounts.cancel': '취소',
  'accounts.sessionOnly': '이번 세션에만 사용',
  'accounts.sessionOnlyHint':
    '키체인 없이 메모리에만 보관하며, 앱을 종료하면 사라집니다. 디스크에는 저장하지 않습니다.',
  'accounts.cred.keychain': '키체인에 저장됨 · 키 끝자리 {last4}',
  'accounts.cred.session': '이번 세션에만 보관 중 · 키 끝자리 {last4}',
  'accounts.cred.builtin': '데모 키 내장 · 키 끝자리 {last4}',
  'accounts.cred.missing': '저장된 API 키 없음',
  'accounts.cred.unavailable': '키체인을 사용할 수 없음',
  'accounts.cred.locked': '키체인이 잠겨 있음',
  'accounts.col.partner': '파트너 ID',
  'accounts.col.zone': '시간대',
  'accounts.col.key': '자격 증명',
  'accounts.removeTitle': '‘{name}’ 계정을 삭제할까요?',
  'accounts.removeBody': '키체인에 저장된 API 키와 시크릿도 함께 삭제됩니다.',
  'accounts.removeCache': '이 계정의 캐시 데이터도 삭제',
  'accounts.removeConfirm': '삭제',
  'accounts.outcome.ok': '연결되었습니다. 브랜드 {n}개를 받았습니다.',
  'accounts.outcome.wrong_credentials': 'API 키 또는 시크릿이 틀렸습니다. 다시 입력하세요.',
  'accounts.outcome.wrong_partner':
    '키는 맞지만 이 파트너 ID에 대한 권한이 없습니다. 파트너 ID를 확인하세요.',
  'accounts.outcome.not_found':
    '서비스가 응답했지만 이 주소에 브랜드 목록이 없습니다. 서비스 주소와 파트너 ID를 확인하세요.',
  'accounts.outcome.unreachable': '서버에 연결할 수 없습니다. 주소와 네트워크를 확인하세요.',
  'accounts.outcome.timeout': '서버가 제시간에 응답하지 않았습니다.',
  'accounts.outcome.tls': '서버의 보안 인증서(TLS)를 신뢰할 수 없습니다.',
  'accounts.outcome.service_error': '서비스에 오류가 있습니다. 잠시 후 다시 시도하세요.',
  'accounts.outcome.bad_response':
    '서비스가 예상과 다른 응답을 보냈습니다. 서비스 주소를 확인하세요.',
  'accounts.outcome.no_credentials': '저장된 API 키가 없습니다. 먼저 키를 입력하세요.',
  'accounts.outcome.keychain': '키체인에서 키를 읽을 수 없습니다.',
  'settings.notice.reset':
    '설정 파일이 손상되어 기본값으로 다시 만들었습니다. 이전 파일은 {file}(으)로 보관했습니다.',
  'settings.notice.newer':
    '더 새로운 버전의 앱이 만든 설정 파일이라 기본값으로 시작합니다. 그 파일은 {file}(으)로 보관했습니다.',
  'common.close': '닫기',
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
  ...koReview,
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
  'sync.queued': 'Waiting to sync',
  'list.syncing': 'Syncing…',
  'list.syncingHint': 'The list fills in shortly.',
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
  'nav.accounts': 'Accounts',
  'nav.section.settings': 'Settings',
  'accounts.title': 'Partner accounts',
  'accounts.lead':
    'The partner accounts the app connects to. API keys and secrets live only in the OS keychain and are never shown again.',
  'accounts.add': 'Add account',
  'accounts.active': 'In use',
  'accounts.use': 'Use this account',
  'accounts.test': 'Test connection',
  'accounts.testing': 'Testing…',
  'accounts.edit': 'Edit',
  'accounts.setKey': 'Enter key',
  'accounts.replaceKey': 'Replace key',
  'accounts.remove': 'Remove',
  'accounts.demoNote': 'Demo data from the built-in sandbox; not real customers.',
  'accounts.field.name': 'Display name',
  'accounts.field.baseUrl': 'Service address (base URL)',
  'accounts.field.staticUrl': 'Image host (static URL)',
  'accounts.field.partnerId': 'Partner ID',
  'accounts.field.redirectUri': 'Page after wallet linking (redirectUri)',
  'accounts.field.timeZone': 'Time zone of the service’s timestamps',
  'accounts.field.apiKey': 'API key',
  'accounts.field.apiSecret': 'API secret',
  'accounts.keyHint': 'Leave empty to keep the stored value.',
  'accounts.formAdd': 'New account',
  'accounts.formEdit': 'Edit account',
  'accounts.formKey': 'API key and secret of “{name}”',
  'accounts.save': 'Save',
  'accounts.saving': 'Saving…',
  'accounts.cancel': 'Cancel',
  'accounts.sessionOnly': 'Use for this session only',
  'accounts.sessionOnlyHint':
    'Kept in memory without a keychain and gone when the app quits. Nothing is written to disk.',
  'accounts.cred.keychain': 'In the keychain · key ends {last4}',
  'accounts.cred.session': 'This session only · key ends {last4}',
  'accounts.cred.builtin': 'Built-in demo key · ends {last4}',
  'accounts.cred.missing': 'No API key stored',
  'accounts.cred.unavailable': 'Keychain not available',
  'accounts.cred.locked': 'Keychain locked',
  'accounts.col.partner': 'Partner ID',
  'accounts.col.zone': 'Time zone',
  'accounts.col.key': 'Credentials',
  'accounts.removeTitle': 'Remove the account “{name}”?',
  'accounts.removeBody': 'Its API key and secret are deleted from the keychain too.',
  'accounts.removeCache': 'Also delete this account’s cached data',
  'accounts.removeConfirm': 'Remove',
  'accounts.outcome.ok': 'Connected. The service listed {n} brands.',
  'accounts.outcome.wrong_credentials': 'The API key or secret is wrong. Enter them again.',
  'accounts.outcome.wrong_partner':
    'The key works but not for this partner ID. Check the partner ID.',
  'accounts.outcome.not_found':
    'The service answered, but there is no brand list at this address. Check the base URL and partner ID.',
  'accounts.outcome.unreachable': 'Can’t reach the server. Check the address and the network.',
  'accounts.outcome.timeout': 'The server did not answer in time.',
  'accounts.outcome.tls': 'The server’s security certificate (TLS) is not trusted.',
  'accounts.outcome.service_error': 'The service has a problem. Try again later.',
  'accounts.outcome.bad_response': 'The service sent an unexpected answer. Check the base URL.',
  'accounts.outcome.no_credentials': 'No API key is stored. Enter the key first.',
  'accounts.outcome.keychain': 'The key could not be read from the keychain.',
  'settings.notice.reset':
    'The settings file was damaged and has been reset. The old file was kept as {file}.',
  'settings.notice.newer':
    'The settings file is from a newer version of the app, so defaults are used. It was kept as {file}.',
  'common.close': 'Close',
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
  ...enReview,
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

const [getI18n, provideI18n] = createContext<I18n>()

/** Provides the i18n object to the component tree. */
export const setI18n = provideI18n

/** The i18n object of the nearest ancestor that set one. */
export const useI18n = getI18n
