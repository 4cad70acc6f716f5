/**
 * The small interface the vault needs from a keychain (get, set, delete,
 * find), after GitHub Desktop's `ISecureStore`
 * (desktop/desktop app/src/lib/stores/token-store.ts). One adapter wraps
 * keytar; {@link MemoryStore} is the session-only store.
 */
export interface SecureStore {
  /** Short name for logs, e.g. `keytar` or `memory`. */
  readonly backend: string
  /** The stored value, or null when there is none. */
  get(service: string, account: string): Promise<string | null>
  set(service: string, account: string, value: string): Promise<void>
  /** True when an entry was removed. */
  delete(service: string, account: string): Promise<boolean>
  /** Every account stored under `service` (values included; stays in main). */
  find(service: string): Promise<Array<{ account: string; password: string }>>
}
