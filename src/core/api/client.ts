import type { Brand } from '../../shared/domain'
import { AppError } from '../app-error'
import { getJson, type FetchLike } from './http'
import { brandListSchema, brandSchema } from './schemas'

/** The service coordinates of a profile; no secret here. */
export interface ServiceTarget {
  readonly baseUrl: string
  readonly partnerId: string
}

/** The partner API key and secret, held only in main. */
export interface Credentials {
  readonly apiKey: string
  readonly apiSecret: string
}

/** Where the client gets credentials from (the vault in the app). */
export type CredentialSource = () => Promise<Credentials>

/** Options of {@link PartnerClient}. */
export interface PartnerClientOptions {
  readonly fetch: FetchLike
  readonly target: ServiceTarget
  readonly credentials: CredentialSource
  readonly timeoutMs?: number
}

/** A page of items that passed the schema, and how many did not. */
export interface Parsed<T> {
  readonly items: T[]
  /** Items that missed a required field: counted and reported, never silently dropped. */
  readonly rejected: number
}

/** The partner API client (operations 1–3 with headers; URL builders for 4–5). */
export class PartnerClient {
  readonly #options: PartnerClientOptions

  constructor(options: PartnerClientOptions) {
    this.#options = options
  }

  /** Operation 3: the luxury brand list. */
  async listBrands(signal?: AbortSignal): Promise<Parsed<Brand>> {
    const body = await this.#get(
      `v1/partner/${encodeURIComponent(this.#options.target.partnerId)}/guarantee/brand`,
      signal,
    )
    const list = brandListSchema.safeParse(body)
    if (!list.success) throw new AppError('bad_response', 'The brand list is not an array.')
    const items: Brand[] = []
    let rejected = 0
    for (const raw of list.data) {
      const parsed = brandSchema.safeParse(raw)
      if (parsed.success) {
        items.push({
          idx: parsed.data.idx,
          name: parsed.data.name.trim(),
          englishName: parsed.data.englishName.trim(),
        })
      } else {
        rejected += 1
      }
    }
    return { items, rejected }
  }

  async #get(path: string, signal?: AbortSignal): Promise<unknown> {
    const { apiKey, apiSecret } = await this.#options.credentials()
    const url = new URL(path, withSlash(this.#options.target.baseUrl)).toString()
    return getJson(this.#options.fetch, url, {
      headers: { 'X-Service-API-Key': apiKey, Authorization: apiSecret },
      ...(signal ? { signal } : {}),
      ...(this.#options.timeoutMs ? { timeoutMs: this.#options.timeoutMs } : {}),
    })
  }
}

/** `new URL(path, base)` drops the base's last segment unless it ends with a slash. */
function withSlash(base: string): string {
  return base.endsWith('/') ? base : `${base}/`
}
