import { getContext, setContext } from 'svelte'
import type { TeamMembers, TeamStatusView } from '../../../shared/team'
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
  /** True while the active profile has a team server. */
  readonly active = $derived(this.status.state !== 'none')
  readonly #client: Client | null
  /** `team.status` events seen so far: an answer asked for before the latest event is stale. */
  #events = 0

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
      client.on('profiles.changed', () => void this.#load()),
      client.on('data.changed', ({ resource }) => {
        // Pulled marks may come from an author not known yet.
        if (this.active && resource !== 'brands') void this.#loadMembers()
      }),
    ]
    return () => offs.forEach((off) => off())
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
