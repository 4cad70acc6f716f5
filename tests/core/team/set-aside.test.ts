import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migrate } from '../../../src/core/team/admin'
import type { TeamServerConfig } from '../../../src/core/team/connection'
import { openTeamSession } from '../../../src/core/team/session'
import { startSandbox, demoCredentials, type Sandbox } from '../../../src/sandbox'
import { bootTeamCore } from '../../support/team-core'
import { adminClient, makeTeam, uniqueName } from '../../support/team-fixtures'
import { reviewDraft, startConnected, syncedClient } from '../../support/team-sync-client'

/**
 * One event the server refuses for what it holds never stops the others: a
 * shop's database in EUC-KR (a Korean server's legacy encoding) cannot store
 * an emoji, and answers SQLSTATE 22P05. The client sets that event aside with
 * the server's reason and keeps pushing what follows, without reconnecting.
 */
describe('an event the server refuses for its content', { timeout: 90_000 }, () => {
  let sandbox: Sandbox
  let partner: string
  let admin: pg.Client
  let db: pg.Client
  let configs: readonly TeamServerConfig[]
  /** The ids of every push call of the writer, in order. */
  const pushed: string[][] = []
  const open: typeof openTeamSession = async (...args) => {
    const session = await openTeamSession(...args)
    const push = session.push.bind(session)
    session.push = (drafts) => {
      pushed.push(drafts.map((draft) => draft.id))
      return push(drafts)
    }
    return session
  }

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 15_000 + Math.floor(Math.random() * 5000), size: 20 })
    partner = demoCredentials(sandbox.seed).partnerId
    admin = await adminClient()
    const database = uniqueName('euckr')
    await admin.query(
      `CREATE DATABASE ${database} ENCODING 'EUC_KR' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0`,
    )
    db = await adminClient(database)
    await migrate(db)
    ;({ configs } = await makeTeam(db, { partner, members: ['writer', 'reader', 'app'], database }))
  })
  afterAll(async () => {
    await db?.end()
    await admin?.end()
    await sandbox?.close()
  })

  it('is set aside with the server’s reason while the marks after it arrive', async () => {
    const writer = syncedClient({ config: configs[0]!, partnerId: partner, open })
    const reader = syncedClient({ config: configs[1]!, partnerId: partner })
    await startConnected(writer, reader)
    const before = reviewDraft({ recordIdx: 1, note: '앞' })
    const refused = reviewDraft({ recordIdx: 2, note: 'emoji 😀 here' })
    const after = reviewDraft({ recordIdx: 3, note: '뒤', mark: 'follow_up' })
    writer.local.enqueue(before, refused, after)
    writer.sync.nudge()
    await reader.local.until(() => reader.local.applied.has(after.id))
    expect(reader.local.applied.has(before.id)).toBe(true)
    expect(reader.local.applied.has(refused.id)).toBe(false)
    await writer.local.until(() => writer.sync.status.setAside === 1)
    expect(writer.sync.status).toMatchObject({ state: 'connected', unsent: 0, setAside: 1 })
    expect(writer.local.setAsideEntries).toEqual([
      expect.objectContaining({ id: refused.id, sqlState: '22P05', draft: refused }),
    ])
    expect(writer.local.setAsideEntries[0]!.reason).toMatch(/EUC_KR/)
    // Never a reconnect: the refusal is no network fault.
    expect(writer.statuses.filter((status) => status.state === 'connecting')).toHaveLength(1)
    expect(writer.statuses.some((status) => status.state === 'offline')).toBe(false)

    // More marks later go on as usual, and the refused one is not tried again.
    const tries = pushed.filter((ids) => ids.includes(refused.id)).length
    const later = reviewDraft({ recordIdx: 4, note: '나중' })
    writer.local.enqueue(later)
    writer.sync.nudge()
    await reader.local.until(() => reader.local.applied.has(later.id))
    expect(pushed.at(-1)).toEqual([later.id])
    expect(pushed.filter((ids) => ids.includes(refused.id))).toHaveLength(tries)
    // Found by halving the batch: the whole batch, its halves, then the refused one alone.
    expect(pushed.slice(0, 4)).toEqual([
      [before.id, refused.id, after.id],
      [before.id, refused.id],
      [before.id],
      [refused.id],
    ])
    await Promise.all([writer.sync.stop(), reader.sync.stop()])
  })

  it('shows in the app’s status, lists with its reason, and is discarded', async () => {
    const core = await bootTeamCore(sandbox, configs[2]!)
    try {
      await core.until(async () => (await core.status()).state === 'connected')
      const page = await core.call('inspections.query', { limit: 3 })
      const [kept, refusedIdx] = page.rows.map((row) => row.idx)
      await core.call('reviews.set', {
        resource: 'inspections',
        idx: refusedIdx!,
        mark: 'follow_up',
        note: '확인 😀',
      })
      await core.call('reviews.set', { resource: 'inspections', idx: kept!, mark: 'reviewed' })
      await core.until(async () => {
        const status = await core.status()
        return status.state === 'connected' && status.unsent === 0 && status.setAside === 1
      })
      const history = await core.call('reviews.history', { resource: 'inspections', idx: kept! })
      expect(history.map((entry) => entry.seq === null)).toEqual([false])
      const [entry, ...rest] = await core.call('team.setAside')
      expect(rest).toEqual([])
      expect(entry).toMatchObject({
        kind: 'review',
        resource: 'inspections',
        idx: refusedIdx,
        mark: 'follow_up',
        note: '확인 😀',
        sqlState: '22P05',
      })
      expect(entry!.reason).toMatch(/EUC_KR/)

      const status = await core.call('team.discard', { ids: [entry!.id] })
      expect(status).toMatchObject({ state: 'connected', unsent: 0, setAside: 0 })
      expect(await core.call('team.setAside')).toEqual([])
      expect(
        await core.call('reviews.history', { resource: 'inspections', idx: refusedIdx! }),
      ).toEqual([])
    } finally {
      await core.close()
    }
  })
})
