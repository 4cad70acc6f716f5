import { GUARANTEE_STATE_LABELS, type GuaranteeState } from '../shared/domain'
import { sandboxBrands } from './data/brands'
import {
  CATEGORIES,
  CATEGORY_WEIGHTS,
  COLORS,
  ETC_DETAILS,
  GIVEN_NAMES,
  JEWELRY_BRANDS,
  MATERIALS,
  SURNAMES,
  WATCH_BRANDS,
  type Category,
} from './data/catalog'
import { createRng, hexOf, mix } from './seed'
import { localTimestamp } from '../shared/local-time'
import { DEFAULT_TIME_ZONE } from '../shared/profiles'
import {
  listSelection,
  lowerBound,
  pageOf,
  periodicSelection,
  rangeSelection,
  type Selection,
} from './selection'
import { INSPECTION_LABELS, type RawBrand, type RawGuarantee, type RawInspection } from './types'

/**
 * The sandbox's records, generated on demand from (seed, index): nothing is
 * stored, so a dataset of a million guarantees costs no memory and one page
 * costs O(pageSize). Record `idx` values run from 1 to `size`, registration
 * times increase with `idx`, and every quirk the spec records appears on
 * some items.
 *
 * Filters stay cheap because the generator is built around them:
 * - registration time is monotonic in the index, so `from`/`to` become an
 *   index range by binary search;
 * - status labels follow a seeded pattern with period {@link STATUS_PERIOD},
 *   so "all `ready` guarantees" is a periodic set counted in O(period);
 * - members own the indices of one residue class modulo the member count
 *   (through a seeded affine map), so one member's records are found
 *   directly, about {@link ITEMS_PER_MEMBER} of them.
 */

/** Timestamps are wall-clock times (the spec shows no zone; the app labels them Asia/Seoul). */
/** The span from the oldest registration to the newest: a little under four years. */
const SPAN_SECONDS = Date.UTC(2026, 10, 20, 18, 0, 0) / 1000 - Date.UTC(2023, 0, 2, 9, 0, 0) / 1000
/** The newest registration is this long before the dataset's "now". */
const NEWEST_BEFORE_NOW_SECONDS = 6 * 3600

/** The wall-clock second count (as the service writes times) of an instant, in the service's zone. */
export function wallSecond(epochMs: number): number {
  const text = localTimestamp(new Date(epochMs), DEFAULT_TIME_ZONE)
  return Date.parse(`${text.replace(' ', 'T')}Z`) / 1000
}

/** Length of the repeating pattern of status labels. */
const STATUS_PERIOD = 20
/** Average number of records per member. */
const ITEMS_PER_MEMBER = 25

/** The two record lists of the service. */
export type SandboxResource = 'guarantee' | 'inspection'

/** One request to the guarantee or inspection list, already validated (see `query.ts`). */
export interface SandboxListRequest {
  readonly refUserId?: string
  /** `nftStatus` for guarantees (a state), `status` for inspections (a label). */
  readonly status?: string
  /** Inclusive first day, `YYYY-MM-DD`. */
  readonly from?: string
  /** Inclusive last day, `YYYY-MM-DD`. */
  readonly to?: string
  readonly page: number
  readonly pageSize: number
  readonly sort: 'latest' | 'oldest'
}

/** The matching total and the record indices (0-based) of the requested page. */
export interface PageSlice {
  readonly total: number
  readonly indices: readonly number[]
}

const pad = (value: number, width: number): string => String(value).padStart(width, '0')

/** `YYYY-MM-DD HH:MM:SS` of a wall-clock second count. */
export function formatSecond(second: number): string {
  const d = new Date(second * 1000)
  return (
    `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1, 2)}-${pad(d.getUTCDate(), 2)} ` +
    `${pad(d.getUTCHours(), 2)}:${pad(d.getUTCMinutes(), 2)}:${pad(d.getUTCSeconds(), 2)}`
  )
}

/** Wall-clock second count of a `YYYY-MM-DD` day's midnight. */
function daySecond(day: string): number {
  return Date.parse(`${day}T00:00:00Z`) / 1000
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b]
  return a
}

/** Inverse of `a` modulo `m` (they must be coprime). */
function modInverse(a: number, m: number): number {
  let [oldR, r] = [a % m, m]
  let [oldS, s] = [1, 0]
  while (r !== 0) {
    const q = Math.floor(oldR / r)
    ;[oldR, r] = [r, oldR - q * r]
    ;[oldS, s] = [s, oldS - q * s]
  }
  return ((oldS % m) + m) % m
}

/** A seeded affine bijection of `[0, m)`: index → member slot, and its inverse. */
class SlotMap {
  readonly #multiplier: number
  readonly #offset: number
  readonly #inverse: number
  readonly #modulus: number

  constructor(m: number, seed: number, salt: number) {
    const candidates = [7919, 104_729, 1_299_709, 15_485_863, 2_038_074_743]
    const start = mix(seed, salt, 0) % candidates.length
    let a = 1
    for (let k = 0; k < candidates.length; k += 1) {
      const candidate = (candidates[(start + k) % candidates.length] ?? 1) % m
      if (candidate > 0 && gcd(candidate, m) === 1) {
        a = candidate
        break
      }
    }
    this.#modulus = m
    this.#multiplier = a
    this.#offset = mix(seed, salt, 1) % m
    this.#inverse = modInverse(a, m)
  }

  /** The slot of record index `i`. */
  slot(i: number): number {
    // a < m <= 40 000 and i < 1 000 000 keep the product far below 2^53.
    return (this.#multiplier * (i % this.#modulus) + this.#offset) % this.#modulus
  }

  /** The residue modulo m of the record indices whose slot is `slot`. */
  residueOf(slot: number): number {
    const m = this.#modulus
    const diff = (((slot - this.#offset) % m) + m) % m
    return (this.#inverse * diff) % m
  }
}

/** Options of a {@link Dataset}. */
export interface DatasetOptions {
  readonly seed: number
  /** Number of guarantees and of inspections, 0 to 1 000 000. */
  readonly size: number
  /** `{static_url}`: where `nftCardImg` points. */
  readonly staticUrl: string
  /**
   * The dataset's "now" (epoch milliseconds): the newest record registered six
   * hours before it, the oldest a little under four years before. The same
   * seed, size and anchor always give the same records; the hosts anchor the
   * demo to the moment they start, tests to a fixed instant.
   */
  readonly anchor: number
}

/** What a guarantee's card image shows; the static host draws it from this. */
export interface CardFacts {
  readonly idx: number
  readonly brand: RawBrand
  readonly categoryCode: string
  readonly state: GuaranteeState
  readonly animated: boolean
}

/** Deterministic guarantees and inspections for one seed and size. */
export class Dataset {
  readonly seed: number
  readonly size: number
  readonly staticUrl: string
  /** The dataset's "now" as a wall-clock second count: no generated time is later. */
  readonly nowSecond: number
  /** The brand list of operation 3, ordered by Korean name. */
  readonly brands: readonly RawBrand[]
  /** Number of member IDs in use. */
  readonly members: number
  readonly #majorBrands: readonly RawBrand[]
  readonly #guaranteeSlots: SlotMap
  readonly #inspectionSlots: SlotMap
  /** Slots below this have no `refUserId` on guarantees (the field is optional there). */
  readonly #anonymousSlots: number
  readonly #statePattern: readonly GuaranteeState[]
  readonly #labelPattern: readonly (string | undefined)[]
  readonly #secondsPerRecord: number
  /** The newest registration time of any record. */
  readonly #lastSecond: number

  constructor(options: DatasetOptions) {
    this.seed = options.seed
    this.size = options.size
    this.staticUrl = options.staticUrl.replace(/\/+$/, '')
    this.nowSecond = wallSecond(options.anchor)
    this.#lastSecond = this.nowSecond - NEWEST_BEFORE_NOW_SECONDS
    this.brands = sandboxBrands()
    this.#majorBrands = this.brands.filter((brand) => brand.idx <= 88)
    this.members = Math.max(30, Math.ceil(this.size / ITEMS_PER_MEMBER))
    this.#guaranteeSlots = new SlotMap(this.members, this.seed, 11)
    this.#inspectionSlots = new SlotMap(this.members, this.seed, 12)
    this.#anonymousSlots = Math.max(1, Math.floor(this.members / 12))
    this.#secondsPerRecord = Math.max(1, Math.floor(SPAN_SECONDS / Math.max(1, this.size)))

    const rng = createRng(mix(this.seed, 21, 0))
    this.#statePattern = shuffle(
      [
        ...Array<GuaranteeState>(15).fill('complete'),
        ...Array<GuaranteeState>(3).fill('ready'),
        ...Array<GuaranteeState>(2).fill('cancel'),
      ],
      rng,
    )
    this.#labelPattern = shuffle(
      [
        undefined,
        undefined,
        ...Array<string>(3).fill(INSPECTION_LABELS[0]),
        ...Array<string>(5).fill(INSPECTION_LABELS[1]),
        ...Array<string>(10).fill(INSPECTION_LABELS[2]),
      ],
      rng,
    )
  }

  /** The member ID of slot `m`: romanised Korean name plus a number, unique per slot. */
  memberId(m: number): string {
    const combos = SURNAMES.length * GIVEN_NAMES.length
    const combo = m % combos
    const surname = SURNAMES[combo % SURNAMES.length] ?? 'kim'
    const given = GIVEN_NAMES[Math.floor(combo / SURNAMES.length)] ?? 'minji'
    return `${surname}${given}${pad(Math.floor(m / combos) + (this.seed % 7) * 10, 2)}`
  }

  /** The slot of a member ID, or -1 when no member has it. */
  memberSlot(id: string): number {
    const combos = SURNAMES.length * GIVEN_NAMES.length
    for (let combo = 0; combo < combos; combo += 1) {
      const prefix =
        (SURNAMES[combo % SURNAMES.length] ?? '') +
        (GIVEN_NAMES[Math.floor(combo / SURNAMES.length)] ?? '')
      if (!id.startsWith(prefix)) continue
      const digits = id.slice(prefix.length)
      if (!/^\d{2,7}$/.test(digits)) continue
      const m = (Number(digits) - (this.seed % 7) * 10) * combos + combo
      if (m >= 0 && m < this.members && this.memberId(m) === id) return m
    }
    return -1
  }

  /** Registration second of generated record `i` of a list. */
  registeredSecond(resource: SandboxResource, i: number): number {
    return this.#registeredSecond(resource === 'guarantee' ? 0 : 1, i)
  }

  /** Registration second of record `i` (the same clock for guarantees and inspections, offset apart). */
  #registeredSecond(kind: number, i: number): number {
    const jitter = mix(this.seed, 30 + kind, i) % this.#secondsPerRecord
    return (
      this.#lastSecond -
      (this.size - 1 - i) * this.#secondsPerRecord -
      this.#secondsPerRecord +
      1 +
      jitter
    )
  }

  /** Null on about a third of the records ("never modified"), else a time after registration. */
  #modifiedAt(registered: number, rng: () => number): string | null {
    if (rng() < 0.35) return null
    // Modified within 45 days, and never after the dataset's "now".
    const room = Math.max(60, Math.min(45 * 86_400, this.nowSecond - registered))
    return formatSecond(registered + 60 + Math.floor(rng() * room))
  }

  #product(rng: () => number): { brand: RawBrand; category: Category; name: string; code: string } {
    const pool = rng() < 0.7 ? this.#majorBrands : this.brands
    const brand = pool[Math.floor(rng() * pool.length)] ?? (this.brands[0] as RawBrand)
    const category = CATEGORIES[categoryFor(brand.idx, rng)] ?? (CATEGORIES[0] as Category)
    const productIndex = Math.floor(rng() * category.products.length)
    const variant = category.variants[Math.floor(rng() * category.variants.length)] ?? ''
    const colorIndex = Math.floor(rng() * COLORS.length)
    const material =
      category.code === 'BAG' || category.code === 'WLT' || category.code === 'SHO'
        ? (MATERIALS[Math.floor(rng() * MATERIALS.length)] ?? '')
        : ''
    const name = [
      brand.name,
      category.products[productIndex],
      variant,
      material,
      COLORS[colorIndex],
    ]
      .filter((part) => part)
      .join(' ')
    const code = `${category.code}-${pad(brand.idx, 3)}-${pad(productIndex * 100 + colorIndex, 4)}`
    return { brand, category, name, code }
  }

  /** The issuance state of guarantee `i`. */
  stateOf(i: number): GuaranteeState {
    return this.#statePattern[i % STATUS_PERIOD] ?? 'complete'
  }

  /**
   * The first draws of guarantee `i`: product and card kind. Shared by
   * {@link guarantee} and {@link cardFacts}, which must agree; the caller
   * keeps drawing from `rng` for the rest of the record.
   */
  #guaranteeHead(i: number) {
    const rng = createRng(mix(this.seed, 1, i))
    const product = this.#product(rng)
    return { rng, ...product, animated: rng() < 0.12 }
  }

  /**
   * Guarantee record `i` (0-based; its `idx` is `i + 1`). With `arrivedAt`, the
   * record registered at that second and never modified (one that arrives later).
   */
  guarantee(i: number, arrivedAt?: number): RawGuarantee {
    const idx = i + 1
    const registered = arrivedAt ?? this.#registeredSecond(0, i)
    const { rng, brand, category, name, code, animated } = this.#guaranteeHead(i)
    const slot = this.#guaranteeSlots.slot(i)
    const day = formatSecond(registered).slice(0, 10).replaceAll('-', '')
    const orderId = `${day}${pad(Math.floor(rng() * 1_000_000), 6)}`
    const hasOrder = rng() < 0.92
    const optional = {
      refUserId: slot >= this.#anonymousSlots ? this.memberId(slot) : undefined,
      refOrderId: hasOrder ? orderId : undefined,
      refOrderDetailId:
        hasOrder && rng() < 0.95 ? `${orderId}-${1 + Math.floor(rng() * 3)}` : undefined,
      refProductCode: rng() < 0.9 ? code : undefined,
      refCategoryCode: rng() < 0.88 ? category.code : undefined,
      refBrandCode: rng() < 0.9 ? `B${pad(brand.idx, 4)}` : undefined,
      refEtcData1: rng() < 0.5 ? pick(ETC_DETAILS[0], rng) : undefined,
      refEtcData2: rng() < 0.3 ? pick(ETC_DETAILS[1], rng) : undefined,
      refEtcData3: rng() < 0.15 ? pick(ETC_DETAILS[2], rng) : undefined,
    }
    const present = Object.fromEntries(
      Object.entries(optional).filter(([, value]) => value !== undefined),
    ) as Partial<Record<keyof typeof optional, string>>
    return {
      idx,
      status: GUARANTEE_STATE_LABELS[this.stateOf(i)],
      productName: name,
      nftCardImg: `${this.staticUrl}/cards/${idx}.${animated ? 'gif' : 'png'}`,
      ...present,
      registeredAt: formatSecond(registered),
      modifiedAt: modifiedOrNew(this.#modifiedAt(registered, rng), arrivedAt),
    }
  }

  /** What the card image of guarantee `idx` shows, or null when there is no such guarantee. */
  cardFacts(idx: number): CardFacts | null {
    if (!Number.isInteger(idx) || idx < 1 || idx > this.size) return null
    return this.cardFactsOf(idx - 1, this.stateOf(idx - 1))
  }

  /** What the card of guarantee record `i` shows in `state` (any `i`, also one that arrived later). */
  cardFactsOf(i: number, state: GuaranteeState): CardFacts {
    const { brand, category, animated } = this.#guaranteeHead(i)
    return { idx: i + 1, brand, categoryCode: category.code, state, animated }
  }

  /** The `guaranteeToken` of guarantee `idx` (from the detail operation the spec does not list). */
  tokenFor(idx: number): string {
    return `gt_${hexOf(`guarantee-token:${this.seed}:${idx}`, 32)}`
  }

  /** The inspection status label of record `i`; undefined on the items that have none. */
  labelOf(i: number): string | undefined {
    return this.#labelPattern[i % STATUS_PERIOD]
  }

  /** Inspection record `i` (0-based; its `idx` is `i + 1`); `arrivedAt` as for {@link guarantee}. */
  inspection(i: number, arrivedAt?: number): RawInspection {
    const rng = createRng(mix(this.seed, 2, i))
    const idx = i + 1
    const registered = arrivedAt ?? this.#registeredSecond(1, i)
    const { name, code } = this.#product(rng)
    const label = this.labelOf(i)
    const registeredAt = formatSecond(registered)
    const day = registeredAt.slice(2, 10).replaceAll('-', '')
    const orderId = `${registeredAt.slice(0, 10).replaceAll('-', '')}${pad(Math.floor(rng() * 1_000_000), 6)}`
    const modifiedAt = modifiedOrNew(this.#modifiedAt(registered, rng), arrivedAt)
    const result = label === '배송완료' && rng() < 0.6 ? '정품' : undefined
    // The spec's one odd sample: both timestamps under doubled names.
    const oddSpelling = rng() < 0.02
    return {
      idx,
      inspectionNum: `${day}${pad(i % 1_000_000, 6)}`,
      ...(label === undefined ? {} : { inspectionStatus: label }),
      ...(result === undefined ? {} : { inspectionResult: result }),
      productName: name,
      refUserId: this.memberId(this.#inspectionSlots.slot(i)),
      refOrderId: orderId,
      refOrderDetailId: `${orderId}-${1 + Math.floor(rng() * 3)}`,
      refProductCode: code,
      ...(oddSpelling
        ? { registeredAtAt: registeredAt, modifiedAtAt: modifiedAt }
        : { registeredAt, modifiedAt }),
    }
  }

  /**
   * The guarantees matching `query`. `visible` hides the records from that
   * index on (fault injection uses it to make records "appear" between pages).
   */
  selectGuarantees(query: SandboxListRequest, visible = this.size): Selection {
    const state = query.status as GuaranteeState | undefined
    const residues =
      state === undefined ? undefined : residuesWhere(this.#statePattern, (s) => s === state)
    const memberSlot = query.refUserId === undefined ? undefined : this.memberSlot(query.refUserId)
    // Guarantees of the anonymous slots carry no refUserId, so no member filter finds them.
    const slot = memberSlot !== undefined && memberSlot < this.#anonymousSlots ? -1 : memberSlot
    return this.#select(query, 0, residues, slot, this.#guaranteeSlots, visible)
  }

  /** The inspections matching `query` (`status` is matched against the label). */
  selectInspections(query: SandboxListRequest, visible = this.size): Selection {
    const residues =
      query.status === undefined
        ? undefined
        : residuesWhere(this.#labelPattern, (label) => label === query.status)
    const memberSlot = query.refUserId === undefined ? undefined : this.memberSlot(query.refUserId)
    return this.#select(query, 1, residues, memberSlot, this.#inspectionSlots, visible)
  }

  /** The total and the requested page of {@link selectGuarantees}. */
  queryGuarantees(query: SandboxListRequest, visible = this.size): PageSlice {
    return sliceOf(this.selectGuarantees(query, visible), query)
  }

  /** The total and the requested page of {@link selectInspections}. */
  queryInspections(query: SandboxListRequest, visible = this.size): PageSlice {
    return sliceOf(this.selectInspections(query, visible), query)
  }

  #select(
    query: SandboxListRequest,
    kind: number,
    statusResidues: readonly number[] | undefined,
    memberSlot: number | undefined,
    slots: SlotMap,
    visible: number,
  ): Selection {
    const lo =
      query.from === undefined
        ? 0
        : lowerBound(
            this.size,
            (i) => this.#registeredSecond(kind, i) >= daySecond(query.from ?? ''),
          )
    const until =
      query.to === undefined
        ? this.size
        : lowerBound(
            this.size,
            (i) => this.#registeredSecond(kind, i) >= daySecond(query.to ?? '') + 86_400,
          )
    const hi = Math.min(until, Math.max(0, visible))
    let selection: Selection
    if (memberSlot !== undefined) {
      const found: number[] = []
      if (memberSlot >= 0 && lo < hi) {
        const residue = slots.residueOf(memberSlot)
        const period = this.members
        const statusSet = statusResidues === undefined ? undefined : new Set(statusResidues)
        for (let i = lo + ((((residue - lo) % period) + period) % period); i < hi; i += period) {
          if (statusSet === undefined || statusSet.has(i % STATUS_PERIOD)) found.push(i)
        }
      }
      selection = listSelection(found)
    } else if (statusResidues !== undefined) {
      selection = periodicSelection(lo, hi, STATUS_PERIOD, statusResidues)
    } else {
      selection = rangeSelection(lo, hi)
    }
    return selection
  }
}

/** The total and the requested page of a selection. */
export function sliceOf(selection: Selection, query: SandboxListRequest): PageSlice {
  return {
    total: selection.count,
    indices: pageOf(selection, query.page, query.pageSize, query.sort),
  }
}

/** A generated `modifiedAt`, or null for a record that just arrived (`arrivedAt` given). */
function modifiedOrNew(generated: string | null, arrivedAt: number | undefined): string | null {
  return arrivedAt === undefined ? generated : null
}

/** Index into CATEGORIES for a product of `brandIdx`: watchmakers make watches, jewellers jewellery. */
function categoryFor(brandIdx: number, rng: () => number): number {
  const watch = CATEGORIES.findIndex((category) => category.code === 'WCH')
  const jewel = CATEGORIES.findIndex((category) => category.code === 'JWL')
  if (WATCH_BRANDS.has(brandIdx)) return watch
  if (JEWELRY_BRANDS.has(brandIdx)) return rng() < 0.8 ? jewel : watch
  const weights = CATEGORY_WEIGHTS.map((weight, k) => (k === watch || k === jewel ? 0 : weight))
  return weighted(weights, rng)
}

function residuesWhere<T>(pattern: readonly T[], predicate: (value: T) => boolean): number[] {
  const out: number[] = []
  pattern.forEach((value, index) => {
    if (predicate(value)) out.push(index)
  })
  return out
}

function shuffle<T>(items: T[], rng: () => number): T[] {
  for (let i = items.length - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1))
    ;[items[i], items[j]] = [items[j] as T, items[i] as T]
  }
  return items
}

function weighted(weights: readonly number[], rng: () => number): number {
  const total = weights.reduce((sum, w) => sum + w, 0)
  let roll = rng() * total
  for (let k = 0; k < weights.length; k += 1) {
    roll -= weights[k] ?? 0
    if (roll < 0) return k
  }
  return weights.length - 1
}

function pick(list: readonly string[] | undefined, rng: () => number): string {
  return list?.[Math.floor(rng() * list.length)] ?? ''
}
