import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { MAX_VIEWS_PER_LIST } from '../../../src/shared/saved-views'
import { bootForTest, call, type TestCore } from '../helpers/core'

const cores: TestCore[] = []

afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
})

async function boot(dataDir?: string): Promise<TestCore> {
  const core = await bootForTest({
    keychain: new MemoryStore(),
    keychainService: 'saved-views-test',
    ...(dataDir ? { dataDir } : {}),
  })
  cores.push(core)
  return core
}

async function restart(core: TestCore): Promise<TestCore> {
  await core.close()
  cores.splice(cores.indexOf(core), 1)
  return boot(core.dataDir)
}

async function refused(
  core: TestCore,
  channel: 'views.save' | 'views.remove' | 'views.setLast',
  args: unknown,
) {
  const answer = await core.router.dispatch(channel, args)
  expect(answer.ok, JSON.stringify(args)).toBe(false)
  return answer.ok ? '' : answer.error.code
}

const shipping = {
  q: '샤넬',
  status: '감정승인(배송중)',
  from: '2026-11-01',
  to: '2026-11-20',
  review: 'follow_up',
  sort: 'oldest',
} as const

describe('saved views (views.*)', () => {
  it('saves, renames, re-filters and removes a view; all of it survives a restart', async () => {
    const core = await boot()
    expect(await call(core, 'views.list')).toEqual({ views: [], last: {} })

    const saved = await call(core, 'views.save', {
      resource: 'inspections',
      name: '  배송 중 확인  ',
      filter: shipping,
    })
    expect(saved.views).toHaveLength(1)
    const view = saved.views[0]!
    expect(view).toMatchObject({ resource: 'inspections', name: '배송 중 확인', filter: shipping })

    // A rename keeps the filter; a new filter keeps the name it is given.
    const renamed = await call(core, 'views.save', {
      id: view.id,
      resource: 'inspections',
      name: '배송 지연',
    })
    expect(renamed.views).toEqual([{ ...view, name: '배송 지연' }])
    await call(core, 'views.save', {
      id: view.id,
      resource: 'inspections',
      name: '배송 지연',
      filter: { q: '', status: null },
    })
    await call(core, 'views.save', {
      resource: 'guarantees',
      name: '배송 지연',
      filter: { status: '발급대기', sort: 'latest' },
    })
    await call(core, 'views.setLast', {
      resource: 'guarantees',
      filter: { q: '0012345', status: null },
    })

    const again = await restart(core)
    const listed = await call(again, 'views.list')
    expect(listed.views.map((v) => [v.resource, v.name, v.filter])).toEqual([
      ['inspections', '배송 지연', { q: '', status: null, sort: 'latest' }],
      ['guarantees', '배송 지연', { q: '', status: '발급대기', sort: 'latest' }],
    ])
    expect(listed.last).toEqual({ guarantees: { q: '0012345', status: null, sort: 'latest' } })

    const removed = await call(again, 'views.remove', { id: view.id })
    expect(removed.views.map((v) => v.resource)).toEqual(['guarantees'])
  })

  it('keeps every part a list can filter by: who marked, days in status, the aged sort', async () => {
    const core = await boot()
    const filter = { q: '', markedBy: { role: 'jisoo' }, agedDays: 7, sort: 'aged' } as const
    await call(core, 'views.save', { resource: 'guarantees', name: '지수 확인 대기', filter })
    await call(core, 'views.setLast', { resource: 'inspections', filter: { markedBy: 'others' } })
    const listed = await call(await restart(core), 'views.list')
    expect(listed.views[0]!.filter).toEqual(filter)
    expect(listed.last).toEqual({ inspections: { q: '', markedBy: 'others', sort: 'latest' } })
  })

  it('refuses bad input with a clear code and keeps every view it had', async () => {
    const core = await boot()
    const { views } = await call(core, 'views.save', {
      resource: 'guarantees',
      name: '취소분',
      filter: { status: '발급취소' },
    })
    const id = views[0]!.id
    const bad: Array<['views.save' | 'views.remove' | 'views.setLast', unknown, string]> = [
      ['views.save', { resource: 'guarantees', name: '', filter: {} }, 'invalid_argument'],
      [
        'views.save',
        { resource: 'guarantees', name: '이름\u202E', filter: {} },
        'invalid_argument',
      ],
      [
        'views.save',
        { resource: 'guarantees', name: 'x'.repeat(81), filter: {} },
        'invalid_argument',
      ],
      ['views.save', { resource: 'brands', name: 'b', filter: {} }, 'invalid_argument'],
      ['views.save', { resource: 'guarantees', name: 'n' }, 'invalid_argument'],
      [
        'views.save',
        { resource: 'guarantees', name: 'n', filter: { from: '11/01/2026' } },
        'invalid_argument',
      ],
      [
        'views.save',
        { resource: 'guarantees', name: 'n', filter: { sort: 'random' } },
        'invalid_argument',
      ],
      [
        'views.save',
        { resource: 'guarantees', name: 'n', filter: { cursor: 'abc' } },
        'invalid_argument',
      ],
      // Names are unique within a list, whatever their case.
      ['views.save', { resource: 'guarantees', name: ' 취소분 ', filter: {} }, 'invalid_argument'],
      ['views.save', { id: 'not-a-uuid', resource: 'guarantees', name: 'n' }, 'invalid_argument'],
      ['views.save', { id: crypto.randomUUID(), resource: 'guarantees', name: 'n' }, 'not_found'],
      // A view belongs to its list: the id of a guarantees view is unknown to inspections.
      ['views.save', { id, resource: 'inspections', name: 'n' }, 'not_found'],
      ['views.remove', { id: crypto.randomUUID() }, 'not_found'],
      ['views.remove', {}, 'invalid_argument'],
      [
        'views.setLast',
        { resource: 'inspections', filter: { review: 'maybe' } },
        'invalid_argument',
      ],
    ]
    for (const [channel, args, code] of bad) {
      expect(await refused(core, channel, args), JSON.stringify(args)).toBe(code)
    }
    const listed = await call(core, 'views.list')
    expect(listed.views).toEqual(views)
    expect(listed.last).toEqual({})
  })

  it(`keeps at most ${MAX_VIEWS_PER_LIST} views a list`, async () => {
    const core = await boot()
    for (let i = 0; i < MAX_VIEWS_PER_LIST; i += 1) {
      await call(core, 'views.save', { resource: 'inspections', name: `v${i}`, filter: {} })
    }
    expect(
      await refused(core, 'views.save', { resource: 'inspections', name: 'one more', filter: {} }),
    ).toBe('invalid_argument')
    // The other list has room of its own.
    const other = await call(core, 'views.save', { resource: 'guarantees', name: 'g', filter: {} })
    expect(other.views).toHaveLength(MAX_VIEWS_PER_LIST + 1)
  })

  it('a damaged view in a hand-edited settings file costs only itself', async () => {
    const core = await boot()
    await call(core, 'views.save', {
      resource: 'inspections',
      name: '좋은 보기',
      filter: { q: 'a' },
    })
    await core.close()
    cores.splice(cores.indexOf(core), 1)
    const path = join(core.dataDir, 'settings.json')
    const doc = JSON.parse(readFileSync(path, 'utf8')) as {
      savedViews: unknown[]
      lastFilters: unknown
    }
    doc.savedViews.push({ id: 'x', resource: 'inspections', name: '망가진', filter: {} })
    doc.savedViews.push({
      id: crypto.randomUUID(),
      resource: 'inspections',
      name: '날짜',
      filter: { from: 'yesterday' },
    })
    doc.lastFilters = { inspections: { sort: 'sideways' }, guarantees: { q: 'kept' } }
    writeFileSync(path, JSON.stringify(doc))
    const again = await boot(core.dataDir)
    const listed = await call(again, 'views.list')
    expect(listed.views.map((v) => v.name)).toEqual(['좋은 보기'])
    expect(listed.last).toEqual({ guarantees: { q: 'kept', sort: 'latest' } })
    // The rest of the settings is untouched (no reset notice).
    expect((await call(again, 'settings.get')).notices).toEqual([])
  })
})
