import type { ExportResult } from './export'
/**
 * Wallet-link flows as the renderer sees them. The flow's address carries the
 * partner API key in its path, so nothing here ever holds it: the renderer
 * gets a flow id, the outcome and the history, never the URL.
 */

/** The two wallet operations: 4 (pre-sync a member) and 5 (sync one guarantee). */
export const WALLET_FLOWS = ['pre-sync', 'sync'] as const
/** One of {@link WALLET_FLOWS}. */
export type WalletFlowKind = (typeof WALLET_FLOWS)[number]

/** How a flow ended. */
export const WALLET_OUTCOMES = ['completed', 'cancelled', 'timed_out', 'blocked', 'failed'] as const
/** One of {@link WALLET_OUTCOMES}. */
export type WalletOutcomeName = (typeof WALLET_OUTCOMES)[number]

/** Answer of `wallet.start`: the flow id, and how the host shows the service's page. */
export interface WalletStarted {
  readonly flowId: string
  /**
   * `window`: main opened its own window (Electron); `popup`: the renderer
   * opens `/wallet/open/<flowId>` in a browser popup (web host).
   */
  readonly opener: 'window' | 'popup'
  readonly flow: WalletFlowKind
  readonly refUserId: string
  readonly guaranteeIdx: number | null
  /** ISO time the flow started. */
  readonly startedAt: string
  /** ISO time the flow times out. */
  readonly deadline: string
}

/** Payload of the `wallet.outcome` event (never a URL or a key). */
export interface WalletOutcome {
  readonly flowId: string
  readonly flow: WalletFlowKind
  readonly refUserId: string
  readonly guaranteeIdx: number | null
  readonly outcome: WalletOutcomeName
  /** `blocked`: the refused address's origin; `failed`/`cancelled`: a plain reason; else null. */
  readonly reason: string | null
  /** `completed`: the query parameters of the redirect to `redirectUri`; else empty. */
  readonly params: Readonly<Record<string, string>>
  readonly startedAt: string
  readonly endedAt: string
}

/** One past flow in the profile's history. */
export interface WalletHistoryRow {
  readonly id: number
  readonly flow: WalletFlowKind
  readonly refUserId: string
  readonly guaranteeIdx: number | null
  readonly outcome: WalletOutcomeName
  /** Reason or completion parameters as text (see {@link WalletOutcome}). */
  readonly detail: string | null
  readonly startedAt: string
  readonly endedAt: string | null
  /** With a team server: the name of the member who ran it (docs/team.md); else absent. */
  readonly by?: string
}

/** Answer of `wallet.history`. */
export interface WalletHistoryPage {
  readonly rows: readonly WalletHistoryRow[]
  /** Rows matching the filter (the page may be shorter). */
  readonly total: number
  /** The flow running now, if any. */
  readonly running?: WalletStarted | null
}

/** Answer of `wallet.export`. */
export type WalletExportResult = ExportResult

/** Whether flows on a profile of this kind ask for a confirmation first (production accounts). */
export function walletNeedsConfirmation(kind: string): boolean {
  return kind !== 'sandbox' && kind !== 'test'
}
