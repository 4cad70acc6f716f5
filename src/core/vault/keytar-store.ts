import { createRequire } from 'node:module'
import type { SecureStore } from './secure-store'

type Keytar = {
  getPassword(service: string, account: string): Promise<string | null>
  setPassword(service: string, account: string, password: string): Promise<void>
  deletePassword(service: string, account: string): Promise<boolean>
  findCredentials(service: string): Promise<Array<{ account: string; password: string }>>
}

/**
 * The one keychain adapter: keytar (macOS Keychain, Windows Credential
 * Manager, Secret Service on Linux). keytar is loaded on first use, so a
 * missing or broken native module is reported by the call like any other
 * keychain failure instead of stopping the app at start.
 */
export class KeytarStore implements SecureStore {
  readonly backend = 'keytar'
  #keytar: Keytar | null = null

  #load(): Keytar {
    // keytar is a CommonJS native module; createRequire works in both the
    // Electron main bundle (keytar stays external) and plain Node.
    this.#keytar ??= createRequire(import.meta.url)('keytar') as Keytar
    return this.#keytar
  }

  /** The stored value, or null. */
  get(service: string, account: string): Promise<string | null> {
    return this.#call(() => this.#load().getPassword(service, account))
  }

  /** Stores or replaces a value. */
  set(service: string, account: string, value: string): Promise<void> {
    return this.#call(() => this.#load().setPassword(service, account, value))
  }

  /** Removes a value; true when there was one. */
  delete(service: string, account: string): Promise<boolean> {
    return this.#call(() => this.#load().deletePassword(service, account))
  }

  /** Every account under `service`. */
  find(service: string): Promise<Array<{ account: string; password: string }>> {
    return this.#call(() => this.#load().findCredentials(service))
  }

  /** Turns a synchronous throw (e.g. loading the native module) into a rejection. */
  async #call<T>(run: () => Promise<T>): Promise<T> {
    return run()
  }
}
