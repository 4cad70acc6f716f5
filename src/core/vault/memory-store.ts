import type { SecureStore } from './secure-store'

/**
 * Session-only credentials: kept in this process's memory until the app
 * quits, never written anywhere. Used when the user chooses "use for this
 * session only" because no keychain is reachable.
 */
export class MemoryStore implements SecureStore {
  readonly backend = 'memory'
  readonly #entries = new Map<string, Map<string, string>>()

  /** The stored value, or null. */
  async get(service: string, account: string): Promise<string | null> {
    return this.#entries.get(service)?.get(account) ?? null
  }

  /** Stores or replaces a value. */
  async set(service: string, account: string, value: string): Promise<void> {
    const accounts = this.#entries.get(service) ?? new Map<string, string>()
    accounts.set(account, value)
    this.#entries.set(service, accounts)
  }

  /** Removes a value; true when there was one. */
  async delete(service: string, account: string): Promise<boolean> {
    return this.#entries.get(service)?.delete(account) ?? false
  }

  /** Every account under `service`. */
  async find(service: string): Promise<Array<{ account: string; password: string }>> {
    return [...(this.#entries.get(service) ?? new Map<string, string>())].map(
      ([account, password]) => ({ account, password }),
    )
  }
}
