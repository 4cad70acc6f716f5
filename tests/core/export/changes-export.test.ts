import { afterEach, describe, expect, it } from 'vitest'
import type { ChangeEntry } from '../../../src/shared/changes'
import type { ChannelName } from '../../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../../src/shared/contract'
import type { BootedCore } from '../../support/boot'
import { bootSynced, call as callOn } from '../helpers/core'
import { readBack } from '../helpers/xlsx-read'
import { instantText } from '../../../src/shared/time-text'

/**
 * `changes.export`: the feed of a filter as a workbook or CSV, one line
 * per entry in the feed's order, with the words the Changes view shows.
 */

let core: BootedCore | null = null
afterEach(async () => {
  await core?.close()
  core = null
})

/** The core's clock: the baseline sync runs at this instant (Seoul noon). */
const NOW = new Date('2026-11-21T03:00:00Z')

const call = <C extends ChannelName>(
  channel: C,
  args: ChannelArgs<C> | Record<string, unknown> = {},
): Promise<ChannelResult<C>> => callOn(core!, channel, args)

/** A synced core whose sandbox then moved `steps` steps and was synced again. */
async function moved(steps: number): Promise<BootedCore> {
  core = await bootSynced({ size: 150, now: () => NOW })
  core.sandbox.advance(steps)
  await call('sync.start', { mode: 'full' })
  await core.sync.idle()
  return core
}

/** Every entry of a filter, newest first. */
async function feed(args: ChannelArgs<'changes.list'> = {}): Promise<ChangeEntry[]> {
  const entries: ChangeEntry[] = []
  let before: number | undefined
  do {
    const page = await call('changes.list', { ...args, limit: 50, ...(before ? { before } : {}) })
    entries.push(...page.entries)
    before = page.nextBefore ?? undefined
  } while (before !== undefined)
  return entries
}

/** CSV lines split into fields (the test's values hold no quotes or commas but the change text). */
function csvRows(text: string): string[][] {
  return text
    .slice(1)
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.match(/("(?:[^"]|"")*"|[^,]*)(,|$)/gu)!.map((f) => f.replace(/,$/u, '')))
    .map((fields) => fields.filter((_, i) => i < 6).map((f) => f.replace(/^"|"$/gu, '')))
}

describe('changes.export', () => {
  it('writes every entry of the feed in its order, in the view’s words', async () => {
    await moved(25)
    const entries = await feed()
    expect(entries.some((e) => e.kind === 'status')).toBe(true)
    const answer = await call('changes.export', { lang: 'en', format: 'csv' })
    expect(answer).toMatchObject({ kind: 'download', format: 'csv', rows: entries.length })
    expect(answer.fileName).toBe('changes-all-sandbox-2026-11-21.csv')
    const [header, ...rows] = csvRows(answer.csv!)
    expect(header).toEqual(['Synced at', 'List', 'Kind', 'Serial no.', 'Change', 'Seen'])
    expect(rows).toHaveLength(entries.length)
    rows.forEach((row, i) => {
      expect(row[3]).toBe(entries[i]!.idx === null ? '' : String(entries[i]!.idx))
      // The sync's time as the window writes it, in the profile's zone: never ISO or UTC.
      expect(row[0]).toBe(instantText(entries[i]!.at, 'Asia/Seoul', 'second'))
    })
    const baseline = rows.findIndex((row) => row[2] === 'Initial sync')
    expect(rows[baseline]![4]).toBe('Initial sync of 150 records')
    const status = entries.findIndex((e) => e.kind === 'status')
    const detail = entries[status]!.detail as { before: string; after: string }
    // The entry's own change first, then the record's other changes of that sync (its modification time).
    const [own, ...others] = String(rows[status]![4]).split('; ')
    expect(own).toBe(`Status ${detail.before} → ${detail.after}`)
    expect(others).toHaveLength(entries[status]!.detail.also?.length ?? 0)
    for (const other of others) expect(other).toMatch(/^Modified: .+ → .+/u)
  })

  it('narrows to the kinds and list asked for; a workbook has date and text cells', async () => {
    await moved(25)
    const filter: ChannelArgs<'changes.list'> = {
      resource: 'inspections',
      kinds: ['status', 'result'],
    }
    const entries = await feed(filter)
    expect(entries.length).toBeGreaterThan(0)
    const answer = await call('changes.export', { ...filter, lang: 'ko' })
    expect(answer).toMatchObject({ format: 'xlsx', rows: entries.length })
    const { cells } = readBack(Buffer.from(answer.xlsx!, 'base64'))
    expect(['A1', 'B1', 'C1', 'D1', 'E1'].map((c) => cells.get(c)?.value)).toEqual([
      '동기화 시각',
      '목록',
      '종류',
      '일련번호',
      '변경 내용',
    ])
    entries.forEach((entry, i) => {
      expect(cells.get(`B${i + 2}`)).toMatchObject({ type: 's', value: '감정 내역' })
      expect(cells.get(`D${i + 2}`)).toMatchObject({ type: 's', value: String(entry.idx) })
      // The second sync's start, as a date cell.
      expect(cells.get(`A${i + 2}`)).toMatchObject({ type: 'n', format: 'yyyy-mm-dd hh:mm:ss' })
    })
    expect(cells.get(`A${entries.length + 2}`)).toBeUndefined()
  })

  it('refuses a bad filter with invalid_argument', async () => {
    core = await bootSynced({ size: 20, now: () => NOW })
    for (const args of [
      { kinds: [] },
      { kinds: ['bogus'] },
      { resource: 'brands' },
      { format: 'pdf' },
    ]) {
      const answer = await core.router.dispatch('changes.export', args)
      expect(answer.ok ? 'ok' : answer.error.code).toBe('invalid_argument')
    }
  })
})
