import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startEmbeddedSandbox, startSandbox, type Sandbox } from '../../../src/sandbox'
import { Churn, type SandboxChange } from '../../../src/sandbox/churn'
import {
  Dataset,
  wallSecond,
  formatSecond,
  type SandboxListRequest,
  type SandboxResource,
} from '../../../src/sandbox/dataset'
import { LiveDataset, matches } from '../../../src/sandbox/live'
import { GUARANTEE_STATE_LABELS } from '../../../src/shared/domain'
import { INSPECTION_LABELS } from '../../../src/sandbox/types'
import { SANDBOX_ANCHOR } from '../../support/anchor'

const STATIC = 'http://127.0.0.1:9'
const RESOURCES: readonly SandboxResource[] = ['guarantee', 'inspection']

function churned(seed: number, size: number, steps: number) {
  const live = new LiveDataset(
    new Dataset({ seed, size, staticUrl: STATIC, anchor: SANDBOX_ANCHOR }),
  )
  const churn = new Churn(live, seed)
  const changes = churn.advance(steps)
  return { live, churn, changes }
}

type Item = Record<string, unknown>

describe('sandbox time: the step function', () => {
  it('gives the same changes for the same seed, others for another', () => {
    const a = churned(3, 400, 120).changes
    const b = churned(3, 400, 120).changes
    expect(b).toEqual(a)
    expect(churned(4, 400, 120).changes).not.toEqual(a)
    // Taking the steps one at a time changes nothing.
    const single = new Churn(
      new LiveDataset(
        new Dataset({ seed: 3, size: 400, staticUrl: STATIC, anchor: SANDBOX_ANCHOR }),
      ),
      3,
    )
    const oneByOne: SandboxChange[] = []
    for (let k = 0; k < 120; k += 1) oneByOne.push(...single.advance(1))
    expect(oneByOne).toEqual(a)
  })

  it('moves like a service: forward in time, a few records a step, along the real flows', () => {
    const { live, changes } = churned(7, 500, 300)
    const kinds = new Set(changes.map((c) => c.kind))
    expect([...kinds].sort()).toEqual(['back', 'field', 'gone', 'new', 'result', 'status'])

    const steps = new Map<number, SandboxChange[]>()
    for (const change of changes)
      steps.set(change.step, [...(steps.get(change.step) ?? []), change])
    let previous = formatSecond(wallSecond(SANDBOX_ANCHOR))
    for (const [, list] of steps) {
      const at = list[0]?.at ?? ''
      expect(at > previous).toBe(true)
      expect(list.every((c) => c.at === at)).toBe(true)
      // A few records per step (each move logs its field and modifiedAt).
      expect(new Set(list.map((c) => `${c.resource}:${c.idx}`)).size).toBeLessThanOrEqual(10)
      previous = at
    }

    const allowed = new Set([
      `inspectionStatus:${INSPECTION_LABELS[0]}>${INSPECTION_LABELS[1]}`,
      `inspectionStatus:${INSPECTION_LABELS[1]}>${INSPECTION_LABELS[2]}`,
      `status:${GUARANTEE_STATE_LABELS.ready}>${GUARANTEE_STATE_LABELS.complete}`,
      `status:${GUARANTEE_STATE_LABELS.ready}>${GUARANTEE_STATE_LABELS.cancel}`,
      'inspectionResult:null>정품',
    ])
    for (const change of changes) {
      if (change.kind === 'status' || change.kind === 'result') {
        expect(allowed).toContain(`${change.field}:${change.before}>${change.after}`)
      }
      if (change.kind === 'field') {
        expect(['modifiedAt', 'modifiedAtAt']).toContain(change.field)
        expect(change.after).toBe(change.at)
      }
      if (change.kind === 'new') {
        const record = live.record(change.resource, change.idx - 1) as unknown as Item
        expect(change.idx).toBeGreaterThan(500)
        expect(record.registeredAt ?? record.registeredAtAt).toBeDefined()
      }
    }
  })

  it('registers each arrival at its step time, waiting at the start of its flow', () => {
    const { live, changes } = churned(7, 500, 40)
    const arrivals = changes.filter((c) => c.kind === 'new')
    expect(arrivals.length).toBeGreaterThan(10)
    for (const change of arrivals) {
      const record = live.record(change.resource, change.idx - 1) as unknown as Item
      const moved = changes.some(
        (c) => c.idx === change.idx && c.resource === change.resource && c.kind === 'status',
      )
      expect(record.registeredAt ?? record.registeredAtAt).toBe(change.at)
      if (!moved) {
        expect(record.modifiedAt ?? record.modifiedAtAt ?? null).toBeNull()
        if (change.resource === 'guarantee')
          expect(record.status).toBe(GUARANTEE_STATE_LABELS.ready)
        else expect(record.inspectionStatus).toBe(INSPECTION_LABELS[0])
      }
    }
  })

  it('answers every filter and page exactly as a scan of the current records would', () => {
    const { live } = churned(9, 600, 400)
    const queries: Omit<SandboxListRequest, 'page' | 'pageSize' | 'sort'>[] = [
      {},
      { status: 'ready' },
      { status: 'cancel' },
      { status: INSPECTION_LABELS[0] },
      { status: INSPECTION_LABELS[1] },
      { status: INSPECTION_LABELS[2] },
      { from: formatSecond(wallSecond(SANDBOX_ANCHOR) - 40 * 86_400).slice(0, 10) },
      { refUserId: live.inspection(599).refUserId },
      { refUserId: live.guarantee(650).refUserId ?? '', status: 'complete' },
    ]
    for (const resource of RESOURCES) {
      for (const filter of queries) {
        if (resource === 'guarantee' && filter.status?.startsWith('감')) continue
        if (resource === 'inspection' && /^[a-z]+$/.test(filter.status ?? '감')) continue
        const expected: number[] = []
        for (let i = 0; i < live.count(resource); i += 1) {
          const request = { ...filter, page: 1, pageSize: 1, sort: 'oldest' as const }
          if (live.exists(resource, i) && matches(resource, live.record(resource, i), request))
            expected.push(i)
        }
        for (const sort of ['oldest', 'latest'] as const) {
          const pages: number[] = []
          for (let page = 1; page <= Math.ceil(expected.length / 37) + 1; page += 1) {
            const slice = live.query(resource, { ...filter, page, pageSize: 37, sort })
            expect(slice.total, `${resource} ${JSON.stringify(filter)}`).toBe(expected.length)
            pages.push(...slice.indices)
          }
          const order = sort === 'oldest' ? expected : [...expected].reverse()
          expect(pages, `${resource} ${JSON.stringify(filter)} ${sort}`).toEqual(order)
        }
      }
    }
  })

  it('takes wall-clock times in the service zone when asked, and never goes back', () => {
    let now = Date.UTC(2026, 11, 1, 0, 0, 0)
    const churn = new Churn(
      new LiveDataset(
        new Dataset({ seed: 1, size: 50, staticUrl: STATIC, anchor: SANDBOX_ANCHOR }),
      ),
      1,
      { clock: 'wall', now: () => now },
    )
    churn.advance(1)
    expect(churn.time).toBe('2026-12-01 09:00:00')
    now -= 3_600_000 // the machine's clock jumps back an hour
    churn.advance(1)
    expect(churn.time).toBe('2026-12-01 09:00:01')
    now += 7_200_000
    churn.advance(1)
    expect(churn.time).toBe('2026-12-01 10:00:00')
    expect(wallSecond(Date.UTC(2026, 5, 30, 15, 0, 0))).toBe(Date.UTC(2026, 6, 1, 0, 0, 0) / 1000)
  })
})

describe('sandbox time over HTTP', () => {
  let sandbox: Sandbox

  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 21, size: 300, testEndpoints: true })
  })
  afterAll(() => sandbox.close())

  const headers = () => ({ 'X-Service-API-Key': sandbox.apiKey, Authorization: sandbox.apiSecret })

  async function all(resource: SandboxResource): Promise<Map<number, Item>> {
    const out = new Map<number, Item>()
    for (let page = 1; ; page += 1) {
      const response = await fetch(
        `${sandbox.baseUrl}/v1/partner/${sandbox.partnerId}/${resource}?sort=oldest&pageSize=100&page=${page}`,
        { headers: headers() },
      )
      const body = (await response.json()) as { total: number; data: Item[] }
      for (const item of body.data) out.set(Number(item.idx), item)
      if (body.data.length === 0 || out.size >= body.total) {
        expect(out.size).toBe(body.total)
        return out
      }
    }
  }

  async function advance(steps: number): Promise<{ step: number; changes: SandboxChange[] }> {
    const response = await fetch(`${sandbox.baseUrl}/__sandbox/advance?steps=${steps}`, {
      method: 'POST',
    })
    expect(response.status).toBe(200)
    return (await response.json()) as { step: number; changes: SandboxChange[] }
  }

  it('answers after N steps exactly what the log says changed, and nothing else', async () => {
    const before = { guarantee: await all('guarantee'), inspection: await all('inspection') }
    const { step, changes } = await advance(60)
    expect(step).toBe(60)
    const logged = (await (await fetch(`${sandbox.baseUrl}/__sandbox/changes`)).json()) as {
      changes: SandboxChange[]
    }
    expect(logged.changes).toEqual(changes)
    const after = { guarantee: await all('guarantee'), inspection: await all('inspection') }

    // Replay the log over the first answers; the result must be the second answers.
    const away = new Map<string, Item>()
    for (const change of changes) {
      const list = before[change.resource]
      const key = `${change.resource}:${change.idx}`
      if (change.kind === 'new') {
        // The arrival as it came: its current answer with its later logged changes undone.
        const arrived: Item = { ...sandbox.live.record(change.resource, change.idx - 1) }
        const later = changes.filter(
          (c) => c.resource === change.resource && c.idx === change.idx && c.field !== undefined,
        )
        for (const c of [...later].reverse()) {
          if (c.before === null) delete arrived[c.field ?? '']
          else arrived[c.field ?? ''] = c.before
        }
        expect(arrived.registeredAt ?? arrived.registeredAtAt, key).toBe(change.at)
        expect(arrived.modifiedAt ?? arrived.modifiedAtAt ?? null, key).toBeNull()
        expect(list.has(change.idx)).toBe(false)
        list.set(change.idx, arrived)
      } else if (change.kind === 'gone') {
        away.set(key, list.get(change.idx) ?? {})
        expect(list.delete(change.idx), key).toBe(true)
      } else if (change.kind === 'back') {
        expect(away.has(key), key).toBe(true)
        list.set(change.idx, away.get(key) ?? {})
        away.delete(key)
      } else {
        const item = list.get(change.idx)
        expect(item, key).toBeDefined()
        expect(item?.[change.field ?? ''] ?? null, `${key} ${change.field}`).toEqual(change.before)
        list.set(change.idx, { ...item, [change.field ?? '']: change.after })
      }
    }
    for (const resource of RESOURCES) {
      expect(after[resource].size).toBe(before[resource].size)
      for (const [idx, item] of after[resource]) {
        expect(before[resource].get(idx), `${resource} ${idx}`).toEqual(item)
      }
    }
    // The card of a guarantee that arrived is served, and shows its current state.
    const arrival = changes.find((c) => c.kind === 'new' && c.resource === 'guarantee')
    const card = String(after.guarantee.get(arrival?.idx ?? 0)?.nftCardImg ?? '')
    if (card !== '') expect((await fetch(card)).status).toBe(200)
  })

  it('takes a gone record out of lists and totals, and brings it back as it was', async () => {
    let gone: SandboxChange | undefined
    for (let k = 0; k < 500 && gone === undefined; k += 1) {
      gone = (await advance(1)).changes.find((c) => c.kind === 'gone')
    }
    expect(gone).toBeDefined()
    const { resource, idx } = gone as SandboxChange
    const record = sandbox.live.record(resource, idx - 1)
    const total = sandbox.live.query(resource, { page: 1, pageSize: 1, sort: 'latest' }).total
    expect((await all(resource)).has(idx)).toBe(false)

    let back: SandboxChange | undefined
    for (let k = 0; k < 2000 && back === undefined; k += 1) {
      const { changes } = await advance(1)
      back = changes.find((c) => c.kind === 'back' && c.resource === resource && c.idx === idx)
    }
    expect(back).toBeDefined()
    const now = await all(resource)
    expect(now.get(idx)).toEqual({ ...record })
    expect(sandbox.live.query(resource, { page: 1, pageSize: 1, sort: 'latest' }).total).toBe(
      now.size,
    )
    expect(total).toBeGreaterThan(0)
  })

  it('refuses a bad step count with a clear error and takes no step', async () => {
    const step = sandbox.changes().at(-1)?.step ?? 0
    for (const steps of ['0', '-1', 'two', '1e3', '10001']) {
      const response = await fetch(`${sandbox.baseUrl}/__sandbox/advance?steps=${steps}`, {
        method: 'POST',
      })
      expect(response.status, steps).toBe(400)
      expect(((await response.json()) as { code: string }).code).toBe('INVALID_PARAMETER')
    }
    const { step: after } = (await (
      await fetch(`${sandbox.baseUrl}/__sandbox/changes?after=${step}`)
    ).json()) as { step: number }
    expect(after).toBe(step)
  })
})

describe('sandbox time switches', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('has no test endpoints in a normal embedded start', async () => {
    const { sandbox } = await startEmbeddedSandbox({ size: 50 })
    try {
      const advance = await fetch(`${sandbox.baseUrl}/__sandbox/advance?steps=5`, {
        method: 'POST',
      })
      expect(advance.status).toBe(405)
      const changes = await fetch(`${sandbox.baseUrl}/__sandbox/changes`)
      expect(changes.status).toBe(404)
      expect(sandbox.changes()).toEqual([])
      expect(sandbox.live.count('guarantee')).toBe(50)
    } finally {
      await sandbox.close()
    }
  })

  it('steps on its own every everyMs when started with churn', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    const { sandbox } = await startEmbeddedSandbox({
      size: 50,
      anchor: SANDBOX_ANCHOR,
      churn: { everyMs: 2000 },
    })
    try {
      expect(sandbox.changes()).toEqual([])
      expect(sandbox.step).toBe(0)
      vi.advanceTimersByTime(2000 * 3)
      expect(sandbox.step).toBe(3)
      expect(sandbox.changes()).toEqual(churned(1, 50, 3).changes)
    } finally {
      await sandbox.close()
    }
  })
})
