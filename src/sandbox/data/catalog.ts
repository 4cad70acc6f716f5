/**
 * Word lists the sandbox builds its records from: shop categories with
 * product words, colours and materials, shop branches, and romanised Korean
 * member names. Everything here is invented sample data.
 */

/** A shop category with its code and the product words used under it. */
export interface Category {
  readonly code: string
  readonly products: readonly string[]
  /** Size or variant words; empty when the category has none. */
  readonly variants: readonly string[]
}

/** Shop categories; the weight list below decides how often each appears. */
export const CATEGORIES: readonly Category[] = [
  {
    code: 'BAG',
    products: [
      '클래식 플랩백',
      '토트백',
      '숄더백',
      '크로스백',
      '호보백',
      '버킷백',
      '미니백',
      '백팩',
      '클러치',
      '쇼퍼백',
    ],
    variants: ['스몰', '미디엄', '라지', '미니', ''],
  },
  {
    code: 'WLT',
    products: ['반지갑', '장지갑', '카드지갑', '동전지갑', '체인지갑'],
    variants: [''],
  },
  {
    code: 'WCH',
    products: ['오토매틱 워치', '크로노그래프', '쿼츠 워치', '다이버 워치', '드레스 워치'],
    variants: ['36mm', '38mm', '40mm', '41mm', '42mm'],
  },
  {
    code: 'JWL',
    products: ['목걸이', '반지', '팔찌', '귀걸이', '펜던트', '브로치'],
    variants: ['18K', '화이트골드', '로즈골드', '실버', ''],
  },
  {
    code: 'SHO',
    products: ['스니커즈', '로퍼', '펌프스', '슬링백', '샌들', '앵클부츠', '뮬'],
    variants: ['230', '240', '250', '260', '270'],
  },
  {
    code: 'CLO',
    products: ['캐시미어 코트', '트렌치코트', '패딩 재킷', '니트', '셔츠', '블레이저'],
    variants: ['XS', 'S', 'M', 'L', 'XL'],
  },
  {
    code: 'ACC',
    products: ['실크 스카프', '가죽 벨트', '선글라스', '키링', '넥타이', '머니클립'],
    variants: [''],
  },
]

/** Relative frequency of each category, in {@link CATEGORIES} order (bags dominate). */
export const CATEGORY_WEIGHTS: readonly number[] = [40, 16, 12, 12, 9, 6, 5]

/** Brand `idx` values of watchmakers: their products are watches. */
export const WATCH_BRANDS: ReadonlySet<number> = new Set([
  17, 18, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 85, 86, 87, 88, 164, 165, 166, 167, 168, 169, 170,
  171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 225, 227,
])

/** Brand `idx` values of jewellers: their products are jewellery, sometimes watches. */
export const JEWELRY_BRANDS: ReadonlySet<number> = new Set([
  16, 19, 20, 21, 57, 58, 59, 60, 61, 62, 77, 78, 79, 80, 181, 182, 183, 184, 185, 186, 187, 188,
  189, 190, 191, 226,
])

/** Colours and materials appended to product names. */
export const COLORS: readonly string[] = [
  '블랙',
  '화이트',
  '베이지',
  '브라운',
  '카멜',
  '네이비',
  '그레이',
  '버건디',
  '올리브',
  '아이보리',
]

/** Leather and material words appended to bags, wallets and shoes. */
export const MATERIALS: readonly string[] = [
  '램스킨',
  '캐비어',
  '카프스킨',
  '캔버스',
  '페이턴트',
  '',
]

/** Free-text details a shop puts in `refEtcData1..3`. */
export const ETC_DETAILS: readonly (readonly string[])[] = [
  [
    '매장: 강남점',
    '매장: 명동본점',
    '매장: 부산센텀점',
    '매장: 대구점',
    '온라인몰',
    '매장: 판교점',
  ],
  ['보증기간 1년', '보증기간 2년', '국내 정품', '병행수입', '선물 포장 요청'],
  ['구성품: 더스트백, 박스', '구성품: 보증서 카드', '구성품: 없음', '각인 서비스 완료'],
]

/** Romanised Korean surnames for member IDs. */
export const SURNAMES: readonly string[] = [
  'kim',
  'lee',
  'park',
  'choi',
  'jung',
  'kang',
  'cho',
  'yoon',
  'jang',
  'lim',
  'han',
  'oh',
  'seo',
  'shin',
  'kwon',
  'hwang',
  'ahn',
  'song',
  'yoo',
  'hong',
]

/** Romanised Korean given names for member IDs. */
export const GIVEN_NAMES: readonly string[] = [
  'minji',
  'seoyeon',
  'jiwoo',
  'hayoon',
  'doyun',
  'seojun',
  'jiho',
  'eunwoo',
  'yujin',
  'sumin',
  'jiwon',
  'hyunwoo',
  'minseo',
  'yerin',
  'dahyun',
  'junho',
  'taeyang',
  'soyeon',
  'haeun',
  'jaewon',
  'seungmin',
  'chaewon',
  'jimin',
  'yuna',
  'donghyun',
  'sohee',
  'gyuri',
  'hyejin',
  'sangwoo',
  'nayeon',
  'woojin',
  'eunji',
  'minho',
  'seulgi',
  'jinwoo',
  'areum',
  'kyungsoo',
  'bora',
  'hyeri',
  'joon',
]
