import { getContext, setContext } from 'svelte'
import type { PagedResourceName } from '../../../shared/resources'
import type {
  PresenceView,
  PresentMemberView,
  TeamMembers,
  TeamStatusView,
} from '../../../shared/team'
import type { Client } from './client'

/**
 * The team server as the views see it (docs/team.md): the active profile's
 * sync state (`team.status` and its event) and the people whose marks the
 * lists can be filtered by (`team.members`). One instance for the whole app;
 * without a team server the state is `none` and the team parts of the
 * screens stay hidden.
 */
export class TeamState {
  status = $state.raw<TeamStatusView>({ state: 'none' })
  members = $state.raw<TeamMembers>({ me: null, members: [] })
  /** Who else has which record open (`presence.changed`; docs/team.md "Presence"). */
  presence = $state.raw<PresenceView>({ present: [] })
  /** True while the active profile has a team server. */
  readonly active = $derived(this.status.state !== 'none')
  readonly #client: Client | null
  /** `team.status` events seen so far: an answer asked for before the latest event is stale. */
  #events = 0
  /** The record this window told the team it has open (`resource:idx`), or null. */
  #open: string | null = null

  /** `null`: no core behind it (a component shown on its own); it stays `none`. */
  constructor(client: Client | null) {
    this.#client = client
  }

  /** Loads the state and follows its events; returns the unsubscribe function (for `$effect`). */
  connect(): () => void {
    const client = this.#client
    if (!client) return () => {}
    void this.#load()
    const offs = [
      client.on('team.status', (next) => {
        this.#events += 1
        const wasConnected = this.status.state === 'connected'
        this.status = next
        // A (re)connect reads the team's members: the names may be new.
        if (next.state === 'connected' && !wasConnected) void this.#loadMembers()
      }),
      client.on('presence.changed', (next) => (this.presence = next)),
      client.on('profiles.changed', () => {
        // Another profile: its team (if any) has not been told what is open here.
        this.#open = null
        void this.#load()
      }),
      client.on('data.changed', ({ resource }) => {
        // Pulled marks may come from an author not known yet.
        if (this.active && resource !== 'brands') void this.#loadMembers()
      }),
    ]
    return () => offs.forEach((off) => off())
  }

  /** The other members who have the record `resource`/`idx` open. */
  presentAt(resource: string, idx: number): readonly PresentMemberView[] {
    return this.presence.present.filter((entry) => entry.resource === resource && entry.idx === idx)
  }

  /**
   * The detail pane shows this record (null: it closed): the team learns it
   * (`presence.set`), once per change. Nothing is sent without a team server.
   */
  openRecord(at: { resource: PagedResourceName; idx: number } | null): void {
    const key = at ? `${at.resource}:${at.idx}` : null
    if (key === this.#open || !this.active) return
    this.#open = key
    void this.#client?.attempt('presence.set', at).then((answer) => {
      if (answer?.ok) this.presence = answer.value
    })
  }

  /** The name shown for a login role (its display name when the team gave one). */
  nameOf(role: string): string {
    return this.members.members.find((member) => member.role === role)?.name ?? role
  }

  async #load(): Promise<void> {
    const seen = this.#events
    const answer = await this.#client?.attempt('team.status', {})
    // An event that arrived while the answer was on its way is newer than it.
    if (answer?.ok && seen === this.#events) this.status = answer.value
    const presence = await this.#client?.attempt('presence.list', {})
    if (presence?.ok) this.presence = presence.value
    await this.#loadMembers()
  }

  async #loadMembers(): Promise<void> {
    const answer = await this.#client?.attempt('team.members', {})
    if (answer?.ok) this.members = answer.value
  }
}

const KEY = Symbol('team')
const ALONE = new TeamState(null)

/** Provides the team state to the component tree. */
export function setTeam(team: TeamState): TeamState {
  return setContext(KEY, team)
}

/** The team state of the nearest ancestor that set one; without one, a state that stays `none`. */
export function useTeam(): TeamState {
  return getContext<TeamState | undefined>(KEY) ?? ALONE
}
