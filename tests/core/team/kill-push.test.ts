import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, transaction } from '../../../src/core/store/schema/database'
import { configureTeam, countOutbox, queueReviewEvent } from '../../../src/core/store/team-side'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { directTeamCall, StoreTeamSide } from '../../../src/core/team/store-side'
import { TeamSync } from '../../../src/core/team/team-sync'
import { adminClient, makeTeam, uniqueName } from '../../support/team-fixtures'

/**
 * A staff machine killed with SIGKILL in the middle of pushing its outbox
 * loses and duplicates nothing: batches the server committed but the machine
 * never acknowledged are pushed again after the restart and stored once.
 */

const MARKS = 600
const partner = uniqueName('partner')
let admin: pg.Client
let config: TeamServerConfig

beforeAll(async () => {
  admin = await adminClient()
  const { configs } = await makeTeam(admin, { partner, members: ['killed'] })
  config = configs[0]!
})
afterAll(async () => {
  await admin?.end()
})

async function serverCount(): Promise<number> {
  const { rows } = await admin.query<{ n: string }>(
    'SELECT count(*) AS n FROM appraisal_team.review_events WHERE partner_id = $1',
    [partner],
  )
  return Number(rows[0]!.n)
}

describe('kill -9 during a push', () => {
  it('leaves no duplicate and loses nothing after the restart', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'team-kill-')), 'cache', 'p.sqlite')
    const prepared = openStore(file).db
    transaction(prepared, () => {
      configureTeam(prepared, { identity: { role: config.user, displayName: '' } })
      for (let idx = 1; idx <= MARKS; idx += 1) {
        queueReviewEvent(
          prepared,
          { role: config.user, displayName: '' },
          {
            resource: 'guarantees',
            idx,
            mark: 'reviewed',
            note: `mark ${idx}`,
            clientTime: new Date().toISOString(),
          },
        )
      }
    })
    prepared.close()

    // Kill the child on the first notification that some of its events are in.
    const listener = await adminClient()
    await listener.query('LISTEN appraisal_team_events')
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'tests/support/team-push-child.ts',
        file,
        JSON.stringify(config),
        partner,
      ],
      { stdio: 'ignore' },
    )
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.once('exit', (_code, signal) => resolve(signal)),
    )
    await new Promise<void>((resolve) => {
      listener.on('notification', () => {
        void serverCount().then((count) => {
          if (count > 0 && child.exitCode === null && !child.killed) {
            child.kill('SIGKILL')
            resolve()
          }
        })
      })
    })
    expect(await exited).toBe('SIGKILL')
    await listener.end()
    const atKill = await serverCount()
    expect(atKill).toBeGreaterThan(0)
    expect(atKill).toBeLessThan(MARKS)

    // Restart: the same file, a new loop, until everything is sent and pulled back.
    const { db } = openStore(file)
    expect(countOutbox(db).unsent).toBeGreaterThan(0)
    const local = new StoreTeamSide(directTeamCall(db), 'Asia/Seoul')
    let settled: () => void = () => undefined
    const done = new Promise<void>((resolve) => (settled = resolve))
    const sync = new TeamSync({
      config,
      partnerId: partner,
      local,
      onStatus: (status) => {
        if (status.state === 'connected' && status.unsent === 0) settled()
      },
    })
    sync.start()
    await done
    await sync.stop()

    expect(await serverCount()).toBe(MARKS)
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(DISTINCT record_idx) AS n FROM appraisal_team.review_events WHERE partner_id = $1`,
      [partner],
    )
    expect(Number(rows[0]!.n)).toBe(MARKS)
    expect(countOutbox(db)).toEqual({ unsent: 0, setAside: 0 })
    const local_ = db
      .prepare('SELECT count(*) AS n, count(seq) AS numbered FROM team_review_events')
      .get() as { n: number; numbered: number }
    expect(local_).toEqual({ n: MARKS, numbered: MARKS })
    db.close()
  })
})
