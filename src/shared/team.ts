import type { ErrorData } from './errors'
import type { PagedResourceName } from './resources'
import type { ReviewMarkName } from './lists'

/**
 * The team server as the renderer sees it (docs/team.md): the sync state of
 * the active profile, what "Test connection" found, and a record's review
 * history. Never a password.
 */

/** The counts every team state but `none` carries. */
interface OutboxCountsView {
  /** Marks and wallet outcomes kept on this computer, not yet on the server. */
  readonly unsent: number
  /** Events the server refused for their content, kept aside until discarded (`team.setAside`). */
  readonly setAside: number
}

/** Answer of `team.status` and payload of the `team.status` event. */
export type TeamStatusView =
  /** The active profile has no team server: the app works alone. */
  | { readonly state: 'none' }
  | ({ readonly state: 'connecting' | 'stopped' } & OutboxCountsView)
  | ({
      readonly state: 'connected'
      readonly team: string
      readonly role: string
      readonly displayName: string
    } & OutboxCountsView)
  | ({
      readonly state: 'offline'
      readonly error: ErrorData
      /** True while the app retries by itself; false when a person must act first. */
      readonly retrying: boolean
    } & OutboxCountsView)

/** An event set aside (`team.setAside`): what it held and why the server refused it. */
export interface SetAsideEvent {
  readonly id: string
  readonly kind: 'review' | 'assignment' | 'wallet_link'
  /** A review or assignment event's record; null for a wallet link. */
  readonly resource: PagedResourceName | null
  readonly idx: number | null
  readonly mark: ReviewMarkName | null
  /** The note's first 200 characters; null for a wallet link. */
  readonly note: string | null
  /** The server's words (or the app's own check's). */
  readonly reason: string
  /** The server's SQLSTATE; null when the app's own check refused it. */
  readonly sqlState: string | null
  /** ISO time it was set aside. */
  readonly at: string
}

/** Answer of `team.test`. */
export interface TeamTestResult {
  /** `server_version` of PostgreSQL, e.g. `15.14`. */
  readonly serverVersion: string
  readonly schemaVersion: number
  /** The login role (the author of everything this connection pushes). */
  readonly role: string
  readonly team: string
  /** The member's name as the administrator entered it; empty when none. */
  readonly displayName: string
  /** Partner accounts the team is granted. */
  readonly partners: readonly string[]
}

/** A person whose marks the lists can be filtered by: a login role and the name shown for it. */
interface TeamMember {
  readonly role: string
  /** The display name the administrator gave; the role when none. */
  readonly name: string
  /** On the team as the worker last read it: records may be assigned to them (docs/team.md "Assignment"). */
  readonly onTeam: boolean
}

/** Answer of `team.members`: who this member is and everyone whose marks this computer knows. */
export interface TeamMembers {
  /** This member's login role; null when the active profile has no team server. */
  readonly me: string | null
  /** The team's members and any other author of a current mark, by name. */
  readonly members: readonly TeamMember[]
}

/** One event of a record's review history (`reviews.history`), oldest first. */
export interface ReviewHistoryEntry {
  readonly id: string
  readonly mark: ReviewMarkName
  readonly note: string
  /** The author's login role; null for a mark set before the profile had a team server. */
  readonly author: string | null
  readonly authorName: string | null
  /** ISO time it was set on the author's computer. */
  readonly clientTime: string
  /** The server's number; null while it waits to be sent. */
  readonly seq: number | null
  readonly serverTime: string | null
}

/** Another member of the team who has a record open now (docs/team.md "Presence"). */
export interface PresentMemberView {
  /** Their login role. */
  readonly role: string
  /** Their display name (the role when the team gave none). */
  readonly name: string
  readonly resource: PagedResourceName
  readonly idx: number
}

/** Answer of `presence.set` and `presence.list`, payload of `presence.changed`: who else has which record open. */
export interface PresenceView {
  readonly present: readonly PresentMemberView[]
}
