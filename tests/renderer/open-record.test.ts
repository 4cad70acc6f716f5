import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { RecordPlace } from '../../src/shared/changes'
import type { Client } from '../../src/renderer/src/lib/client'
import { onCommands, takeReveal } from '../../src/renderer/src/lib/commands.svelte'
import { openRecord } from '../../src/renderer/src/lib/open-record'

/** A client whose only channel is `records.locate`, answering `place`; it logs every call. */
function locating(place: RecordPlace | null): { client: Client; calls: unknown[][] } {
  const calls: unknown[][] = []
  const client = {
    call: (channel: string, args: unknown) => {
      calls.push([channel, args])
      if (channel !== 'records.locate') throw new Error(`unexpected call ${channel}`)
      return Promise.resolve(place)
    },
  } as unknown as Client
  return { client, calls }
}

const opened: string[] = []
afterAll(
  onCommands({
    'go.guarantees': () => void opened.push('guarantees'),
    'go.inspections': () => void opened.push('inspections'),
  }),
)
afterEach(() => {
  opened.length = 0
  takeReveal('guarantees')
  takeReveal('inspections')
})

describe('opening a record the changes feed names', () => {
  it('asks where its list shows it, once, and opens a guarantee on its registration day', async () => {
    const { client, calls } = locating({
      resource: 'guarantees',
      idx: 7,
      registeredAt: '2023-01-02 22:31:51',
      inspectionNum: null,
    })
    await expect(openRecord(client, 'guarantees', 7)).resolves.toBe(true)
    // No search for "7" paged through: that matches most records of a big list.
    expect(calls).toEqual([['records.locate', { resource: 'guarantees', idx: 7 }]])
    expect(takeReveal('guarantees')).toEqual({
      resource: 'guarantees',
      idx: 7,
      q: '7',
      from: '2023-01-02',
      to: '2023-01-02',
    })
    expect(opened).toEqual(['guarantees'])
  })

  it('opens an inspection by its number', async () => {
    const { client } = locating({
      resource: 'inspections',
      idx: 42,
      registeredAt: '2025-03-02 12:00:00',
      inspectionNum: '240307000151',
    })
    await expect(openRecord(client, 'inspections', 42)).resolves.toBe(true)
    expect(takeReveal('inspections')).toEqual({
      resource: 'inspections',
      idx: 42,
      q: '240307000151',
    })
    expect(opened).toEqual(['inspections'])
  })

  it('answers false, and opens nothing, for a record its list does not show', async () => {
    const { client } = locating(null)
    await expect(openRecord(client, 'guarantees', 8)).resolves.toBe(false)
    expect(takeReveal('guarantees')).toBeNull()
    expect(opened).toEqual([])
  })
})
