import type pg from 'pg'
import { connectClient, type TeamServerConfig } from './connection'
import {
  reviewRowSchema,
  teamEventDraftSchema,
  walletLinkRowSchema,
  type ReviewEventDraft,
  type TeamEvent,
  type TeamEventDraft,
  type WalletLinkEventDraft,
} from './events'
import { TeamError, toTeamError } from './team-error'

/**
 * One connection to the team server for one partner profile: checks the
 * schema version on open, pushes drafts, pulls events after a sequence
 * number, and listens for the insert trigger's notification. Queries and
 * LISTEN share the connection: the team worker runs one thing at a time, and
 * losing the connection loses both together, so one reconnect restores both.
 */

/** The schema version this client understands (team-server/migrations). */
export const TEAM_SCHEMA_VERSION = 1
/** The channel the insert triggers notify (payload empty). */
export const TEAM_NOTIFY_CHANNEL = 'appraisal_team_events'

/** What "Test connection" answers. */
export interface TeamServerInfo {
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
  return {
    serverVersion: server,
    schemaVersion,
    role,
    team: first.team,
    displayName: first.display_name,
    partners: rows.flatMap((row) => (row.partner_id === null ? [] : [row.partner_id])),
  }
}

const REVIEW_COLUMNS = `id, partner_id, resource, record_idx, mark, note, author, client_time, based_on_seq, seq, server_time`
const WALLET_COLUMNS = `id, partner_id, flow, ref_user_id, guarantee_idx, outcome, reason, author, started_at, ended_at, seq, server_time`

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
    const reviews: ReviewEventDraft[] = []
    const links: WalletLinkEventDraft[] = []
    for (const draft of drafts) {
      const parsed = teamEventDraftSchema.safeParse(draft)
      if (!parsed.success) {
        throw new TeamError('team_refused', `An outbox event is malformed (${draft.id}).`)
      }
      if (parsed.data.kind === 'review') reviews.push(parsed.data)
      else links.push(parsed.data)
    }
    const partner = this.#partnerId
    try {
      await this.#client.query('BEGIN')
      let inserted = 0
      if (reviews.length > 0) {
        const result = await this.#client.query(
          `INSERT INTO appraisal_team.review_events
             (id, partner_id, resource, record_idx, mark, note, client_time, based_on_seq)
           SELECT x.id, $2, x.resource, x.record_idx, x.mark, x.note, x.client_time, x.based_on_seq
           FROM jsonb_to_recordset($1::jsonb) AS x(
             id uuid, resource text, record_idx bigint, mark text, note text,
             client_time timestamptz, based_on_seq bigint, ord int)
           ORDER BY x.ord
           ON CONFLICT (id) DO NOTHING`,
          [
            JSON.stringify(
              reviews.map((event, ord) => ({
                id: event.id,
                resource: event.resource,
                record_idx: event.recordIdx,
                mark: event.mark,
                note: event.note,
                client_time: event.clientTime,
                based_on_seq: event.basedOnSeq,
                ord,
              })),
            ),
            partner,
          ],
        )
        inserted += result.rowCount ?? 0
      }
      if (links.length > 0) {
        const result = await this.#client.query(
          `INSERT INTO appraisal_team.wallet_link_events
             (id, partner_id, flow, ref_user_id, guarantee_idx, outcome, reason, started_at, ended_at)
           SELECT x.id, $2, x.flow, x.ref_user_id, x.guarantee_idx, x.outcome, x.reason, x.started_at, x.ended_at
           FROM jsonb_to_recordset($1::jsonb) AS x(
             id uuid, flow text, ref_user_id text, guarantee_idx bigint, outcome text, reason text,
             started_at timestamptz, ended_at timestamptz, ord int)
           ORDER BY x.ord
           ON CONFLICT (id) DO NOTHING`,
          [
            JSON.stringify(
              links.map((event, ord) => ({
                id: event.id,
                flow: event.flow,
                ref_user_id: event.refUserId,
                guarantee_idx: event.guaranteeIdx,
                outcome: event.outcome,
                reason: event.reason,
                started_at: event.startedAt,
                ended_at: event.endedAt,
                ord,
              })),
            ),
            partner,
          ],
        )
        inserted += result.rowCount ?? 0
      }
      await this.#client.query('COMMIT')
      return inserted
    } catch (error) {
      await this.#client.query('ROLLBACK').catch(() => {})
      throw toTeamError(error)
    }
  }

  /** Up to `limit` events of this partner after `afterSeq`, both kinds merged in sequence order. */
  async pull(afterSeq: number, limit: number): Promise<PulledPage> {
    try {
      const args = [this.#partnerId, afterSeq, limit]
      const [reviews, links] = [
        await this.#client.query(
          `SELECT ${REVIEW_COLUMNS} FROM appraisal_team.review_events
           WHERE partner_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          args,
        ),
        await this.#client.query(
          `SELECT ${WALLET_COLUMNS} FROM appraisal_team.wallet_link_events
           WHERE partner_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
          args,
        ),
      ]
      const events: TeamEvent[] = [
        ...reviews.rows.map((row) => reviewRowSchema.parse(row)),
        ...links.rows.map((row) => walletLinkRowSchema.parse(row)),
      ]
      // Each query answered the lowest `limit` of its table; the lowest
      // `limit` of both together are complete up to the last one kept.
      events.sort((a, b) => a.seq - b.seq)
      const page = events.slice(0, limit)
      const more = reviews.rows.length === limit || links.rows.length === limit
      return { events: page, lastSeq: page.at(-1)?.seq ?? afterSeq, more }
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /** Starts listening for the insert trigger's notification. */
  async listen(onNotify: () => void): Promise<void> {
    this.#client.on('notification', (message) => {
      if (message.channel === TEAM_NOTIFY_CHANNEL) onNotify()
    })
    try {
      await this.#client.query(`LISTEN ${TEAM_NOTIFY_CHANNEL}`)
    } catch (error) {
      throw toTeamError(error)
    }
  }

  /** Closes the connection. */
  async close(): Promise<void> {
    await this.#client.end().catch(() => {})
  }
}
