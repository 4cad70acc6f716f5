import { MessagePort } from 'node:worker_threads'
import { isFields, isPositiveInteger } from '../plain-checks'

/**
 * The team worker's own line to the profile's database owner: a
 * `MessagePort` pair the main thread makes once (`StoreOwner.linkTeam`),
 * one end to the owner, the other to the team worker, so the team's store
 * operations never pass through the main thread. Only the operations named
 * here may be asked on it; the owner checks each call by hand, as it checks
 * the main thread's (`requests.ts`), and answers on the same port with its
 * usual `done` / `error` messages (`protocol.ts`).
 */

/** The store operations the team worker may ask for, and nothing else. */
const TEAM_STORE_OPS = [
  'teamReadOutbox',
  'teamCountOutbox',
  'teamSetAside',
  'teamAckOutbox',
  'teamLastSeq',
  'teamApplyPulled',
] as const

/** One of {@link TEAM_STORE_OPS}. */
export type TeamStoreOp = (typeof TEAM_STORE_OPS)[number]

/** Main thread → owner: the owner's end of the team link. */
export interface TeamLinkMessage {
  readonly type: 'team'
  readonly port: MessagePort
}

/** Team worker → owner, on the link: one store operation. */
export interface TeamLinkCall {
  readonly type: 'call'
  readonly id: number
  readonly op: TeamStoreOp
  readonly args?: unknown
}

/** The owner's end of a team link sent by the main thread, or null when it is not one. */
export function readTeamLink(raw: unknown): TeamLinkMessage | null {
  if (!isFields(raw) || raw['type'] !== 'team') return null
  return raw['port'] instanceof MessagePort ? { type: 'team', port: raw['port'] } : null
}

/** A call on the team link, or null when it is not one of {@link TEAM_STORE_OPS}. */
export function readTeamLinkCall(raw: unknown): TeamLinkCall | null {
  if (!isFields(raw) || raw['type'] !== 'call' || !isPositiveInteger(raw['id'])) return null
  const op = raw['op']
  if (typeof op !== 'string' || !(TEAM_STORE_OPS as readonly string[]).includes(op)) return null
  return { type: 'call', id: raw['id'], op: op as TeamStoreOp, args: raw['args'] }
}
