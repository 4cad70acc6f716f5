import type pg from 'pg'
import { isPagedResource, type PagedResourceName } from '../../shared/resources'
import { connectClient, type TeamServerConfig } from './connection'
import {
  assignmentRowSchema,
  reviewRowSchema,
  teamEventDraftSchema,
  walletLinkRowSchema,
} from './events'
import type {
  AssignmentEventDraft,
  ReviewEventDraft,
  TeamEvent,
  TeamEventDraft,
  WalletLinkEventDraft,
} from '../store/team-events'
import { TeamError, toTeamError } from './team-error'
import type { TeamTestResult } from '../../shared/team'

/**
 * One connection to the team server for one partner profile: checks the
 * schema version on open, pushes drafts, pulls events after a sequence
 * number, and listens for the insert trigger's notification. Queries and
 * LISTEN share the connection: the team worker runs one thing at a time, and
 * losing the connection loses both together, so one reconnect restores both.
 */

/**
 * The schema version this client understands (team-server/migrations).
 * @internal
 */
export const TEAM_SCHEMA_VERSION = 5
/**
 * The channel the insert triggers notify (payload empty).
 * @internal
 */
export const TEAM_NOTIFY_CHANNEL = 'appraisal_team_events'
/** The channel a change of presence notifies (payload empty; migration 5). */
const PRESENCE_NOTIFY_CHANNEL = 'appraisal_team_presence'

/** A record a member has open (`resource` and `idx`). */
export interface PresenceAt {
  readonly resource: PagedResourceName
  readonly idx: number
}

/** Another member of the team who has a record open now (their login role). */
export interface PresentMember extends PresenceAt {
  readonly role: string
}

/** What "Test connection" answers, and the team's members. */
export interface TeamServerInfo extends TeamTestResult {
  /** Every member of the team: login role and display name (empty when none). */
  readonly members: readonly { readonly role: string; readonly displayName: string }[]
}

/** A page of pulled events. */
export interface PulledPage {
  readonly events: readonly TeamEvent[]
  /** The sequence number to pull after next time. */
  readonly lastSeq: number
  /** True when the server may hold more after {@link lastSeq}. */
  readonly more: boolean
}

/** Opens a session for one partner account; fails with a {@link TeamError}. */
export async function openTeamSession(
  config: TeamServerConfig,
  partnerId: string,
  onLost: (error: TeamError) => void = () => {},
): Promise<TeamSession> {
  const client = await connectClient(config, onLost)
  try {
    const info = await readServerInfo(client)
    if (!info.partners.includes(partnerId)) {
      throw new TeamError(
        'team_not_member',
        `The team ${info.team} is not granted the partner account ${partnerId}.`,
      )
    }
    return new TeamSession(client, info, partnerId)
  } catch (error) {
    await client.end().catch(() => {})
    throw toTeamError(error)
  }
}

/** Connects, reads what "Test connection" shows, and closes. */
export async function testTeamConnection(config: TeamServerConfig): Promise<TeamServerInfo> {
  const client = await connectClient(config)
  try {
    return await readServerInfo(client)
  } catch (error) {
    throw toTeamError(error)
  } finally {
    await client.end().catch(() => {})
  }
}

async function readServerInfo(client: pg.Client): Promise<TeamServerInfo> {
  const { rows: versionRows } = await client.query<{ server: string; role: string }>(
    `SELECT current_setting('server_version') AS server, session_user AS role`,
  )
  const { server, role } = versionRows[0]!
  let schemaVersion: number
  try {
    const { rows } = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM appraisal_team.schema_version',
    )
    schemaVersion = rows[0]?.version ?? 0
  } catch (error) {
    const classified = toTeamError(error)
    // No USAGE on the schema: the role exists but was never made a member.
    if (classified.sqlState === '42501') {
      throw new TeamError('team_not_member', `The role ${role} is not a member of a team.`, {
        sqlState: '42501',
      })
    }
    throw classified
  }
  if (schemaVersion < TEAM_SCHEMA_VERSION) {
    throw new TeamError(
      'team_schema_old',
      `The team server's schema is version ${schemaVersion}; this app needs ${TEAM_SCHEMA_VERSION}. The administrator runs the migrations.`,
    )
  }
  if (schemaVersion > TEAM_SCHEMA_VERSION) {
    throw new TeamError(
      'team_schema_new',
      `The team server's schema is version ${schemaVersion}, newer than this app understands (${TEAM_SCHEMA_VERSION}). Update the app.`,
    )
  }
  const { rows } = await client.query<{
    team: string
    display_name: string
    partner_id: string | null
  }>('SELECT team, display_name, partner_id FROM appraisal_team.session_team()')
  const first = rows[0]
  if (!first) {
    throw new TeamError('team_not_member', `The role ${role} is not a member of a team.`)
  }
  const { rows: memberRows } = await client.query<{ role_name: string; display_name: string }>(
    'SELECT role_name, display_name FROM appraisal_team.team_members()',
  )
  return {
    serverVersion: server,
    schemaVersion,
    role,
    team: first.team,
    displayName: first.display_name,
    partners: rows.flatMap((row) => (row.partner_id === null ? [] : [row.partner_id])),
    members: memberRows.map((row) => ({ role: row.role_name, displayName: row.display_name })),
  }
}

/** A table a client appends to: each column it writes, its SQL type and the draft field it comes from. */
interface PushedTable<E extends TeamEventDraft> {
  readonly name: string
  readonly columns: readonly (readonly [column: string, type: string, field: keyof E])[]
}

const REVIEW_TABLE: PushedTable<ReviewEventDraft> = {
  name: 'review_events',
  columns: [
    ['resource', 'text', 'resource'],
    ['record_idx', 'bigint', 'recordIdx'],
    ['mark', 'text', 'mark'],
    ['note', 'text', 'note'],
    ['client_time', 'timestamptz', 'clientTime'],
    ['based_on_seq', 'bigint', 'basedOnSeq'],
    ['restores', 'uuid', 'restoresId'],
  ],
}

const ASSIGNMENT_TABLE: PushedTable<AssignmentEventDraft> = {
  name: 'assignment_events',
  columns: [
    ['resource', 'text', 'resource'],
    ['record_idx', 'bigint', 'recordIdx'],
    ['assignee', 'name', 'assignee'],
    ['client_time', 'timestamptz', 'clientTime'],
    ['based_on_seq', 'bigint', 'basedOnSeq'],
    ['restores', 'uuid', 'restoresId'],
  ],
}

const WALLET_LINK_TABLE: PushedTable<WalletLinkEventDraft> = {
  name: 'wallet_link_events',
  columns: [
    ['flow', 'text', 'flow'],
    ['ref_user_id', 'text', 'refUserId'],
    ['guarantee_idx', 'bigint', 'guaranteeIdx'],
    ['outcome', 'text', 'outcome'],
    ['reason', 'text', 'reason'],
    ['started_at', 'timestamptz', 'startedAt'],
    ['ended_at', 'timestamptz', 'endedAt'],
  ],
}

/** The columns a pull reads: what the client wrote plus what the server added. */
function pulledColumns<E extends TeamEventDraft>(table: PushedTable<E>): string {
  return [
    'id',
    'partner_id',
    'author',
    'seq',
    'server_time',
    ...table.columns.map(([column]) => column),
  ].join(', ')
}

/** An open connection; see {@link openTeamSession}. */
export class TeamSession {
  readonly info: TeamServerInfo
  readonly #client: pg.Client
  readonly #partnerId: string

  constructor(client: pg.Client, info: TeamServerInfo, partnerId: string) {
    this.#client = client
    this.info = info
    this.#partnerId = partnerId
  }

  /**
   * Appends drafts in one transaction; a draft whose id the server already
   * holds is skipped, so pushing again after a crash duplicates nothing.
   * Answers how many were new. The author is the session's role.
   */
  async push(drafts: readonly TeamEventDraft[]): Promise<number> {
    const byKind: { [K in TeamEventDraft['kind']]: Extract<TeamEventDraft, { kind: K }>[] } = {
      review: [],
      assignment: [],
      wallet_link: [],
    }
    for (const draft of drafts) {
      const parsed = teamEventDraftSchema.safeParse(draft)
      if (!parsed.success) {
        throw new TeamError('team_refused', `An outbox event is malformed (${draft.id}).`)
      }
      if (parsed.data.kind === 'review') byKind.review.push(parsed.data)
      else if (parsed.data.kind === 'assignment') byKind.assignment.push(parsed.data)
      else byKind.wallet_link.push(parsed.data)
    }
    try {
      await this.#client.query('BEGIN')
      const inserted =
        (await this.#insert(REVIEW_TABLE, byKind.review)) +
        (await this.#insert(ASSIGNMENT_TABLE, byKind.assignment)) +
        (await this.#insert(WALLET_LINK_TABLE, byKind.wallet_link))
      await this.#client.query('COMMIT')
      return inserted
    } catch (error) {
      await this.#client.query('ROLLBACK').catch(() => {})
      throw toTeamError(error)
    }
  }

  /**
   * One INSERT for a batch of one kind: the rows travel as one JSON parameter
   * and `jsonb_to_recordset` types them; `ord` keeps the outbox order, so the
   * server numbers them in the order they were made.
   */
  async #insert<E extends TeamEventDraft>(
    table: PushedTable<E>,
    events: readonly E[],
  ): Promise<number> {
    if (events.length === 0) return 0
    const names = table.columns.map(([column]) => column)
    const result = await this.#client.query(
      `INSERT INTO appraisal_team.${table.name} (id, partner_id, ${names.join(', ')})
       SELECT x.id, $2, ${names.map((name) => `x.${name}`).join(', ')}
       FROM jsonb_to_recordset($1::jsonb) AS x(
         id uuid, ${table.columns.map(([column, type]) => `${column} ${type}`).join(', ')}, ord int)
       ORDER BY x.ord
       ON CONFLICT (id) DO NOTHING`,
      [
        JSON.stringify(
          events.map((event, ord) =>
            Object.fromEntries([
              ['id', event.id],
              ...table.columns.map(([column, , field]) => [column, event[field]]),
              ['ord', ord],
            ]),
          ),
        ),
        this.#partnerId,
      ],
    )
    return result.rowCount ?? 0
  }

  /** Up to `limit` events of this partner after `afterSeq`, both kinds merged in sequence order. */
  async pull(afterSeq: number, limit: number): Promise<PulledPage> {
    try {
      const args = [this.#partnerId, afterSeq, limit]
      const [reviews, assignments, links] = [
        await this.#client.query(
          `SELECT ${pulledColumns(REVIEW_TABLE)} FROM appraisal_team.review_events
           WHERE partner_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          args,
        ),
        await this.#client.query(
          `SELECT ${pulledColumns(ASSIGNMENT_TABLE)} FROM appraisal_team.assignment_events
           WHERE partner_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          args,
        ),
        await this.#client.query(
          `SELECT ${pulledColumns(WALLET_LINK_TABLE)} FROM appraisal_team.wallet_link_events
           WHERE partner_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          args,
        ),
      ]
      const events: TeamEvent[] = [
        ...reviews.rows.map((row) => reviewRowSchema.parse(row)),
        ...assignments.rows.map((row) => assignmentRowSchema.parse(row)),
        ...links.rows.map((row) => walletLinkRowSchema.parse(row)),
      ]
      // Each query answered the lowest `limit` of its table; the lowest
      // `limit` of all together are complete up to the last one kept.
      events.sort((a, b) => a.seq - b.seq)
      const page = events.slice(0, limit)
      const more = [reviews, assignments, links].some((result) => result.rows.length === limit)
      return { events: page, lastSeq: page.at(-1)?.seq ?? afterSeq, more }
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /**
   * Starts listening for the insert triggers' notification (`onNotify`) and
   * for a change of presence (`onPresence`).
   */
  async listen(onNotify: () => void, onPresence: () => void = () => {}): Promise<void> {
    this.#client.on('notification', (message) => {
      if (message.channel === TEAM_NOTIFY_CHANNEL) onNotify()
      else if (message.channel === PRESENCE_NOTIFY_CHANNEL) onPresence()
    })
    try {
      await this.#client.query(`LISTEN ${TEAM_NOTIFY_CHANNEL}`)
      await this.#client.query(`LISTEN ${PRESENCE_NOTIFY_CHANNEL}`)
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /**
   * Says which record this member has open (null: none) for this partner
   * account; the same record again refreshes its heartbeat without waking
   * anyone. Nothing of it is kept past the row (docs/team.md "Presence").
   */
  async setPresence(at: PresenceAt | null): Promise<void> {
    try {
      if (at === null) await this.#client.query('SELECT appraisal_team.clear_presence()')
      else {
        await this.#client.query('SELECT appraisal_team.set_presence($1, $2, $3)', [
          this.#partnerId,
          at.resource,
          at.idx,
        ])
      }
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /** The other members with a record of this partner account open, alive and refreshed within `maxAgeMs`. */
  async readPresence(maxAgeMs: number): Promise<PresentMember[]> {
    try {
      const { rows } = await this.#client.query<{
        role_name: string
        resource: string
        record_idx: string
      }>('SELECT role_name, resource, record_idx FROM appraisal_team.present($1, $2)', [
        this.#partnerId,
        Math.round(maxAgeMs),
      ])
      return rows.flatMap((row) =>
        isPagedResource(row.resource)
          ? [{ role: row.role_name, resource: row.resource, idx: Number(row.record_idx) }]
          : [],
      )
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.#client.end().catch(() => {})
  }
}
