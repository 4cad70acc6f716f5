import { describe, expect, it } from 'vitest'
import type { RecordPlace } from '../../src/shared/changes'
import type { Client } from '../../src/renderer/src/lib/client'
import { Navigation, type ListArrival } from '../../src/renderer/src/lib/navigation'
import type { View } from '../../src/renderer/src/lib/views'

/** A navigation whose client answers `records.locate` with `place`; it logs every call and every screen shown. */
function navigating(place: RecordPlace | null = null) {
  const calls: unknown[][] = []
  const shown: View[] = []
  const client = {
    call: (channel: string, args: unknown) => {
      calls.push([channel, args])
      if (channel !== 'records.locate') throw new Error(`unexpected call ${channel}`)
      return Promise.resolve(place)
    },
  } as unknown as Client
  return { navigation: new Navigation(client, (view) => void shown.push(view)), calls, shown }
}

describe('opening a record by its list and idx', () => {
  it('asks where its list shows it, once, and opens a guarantee on its registration day', async () => {
    const { navigation, calls, shown } = navigating({
      resource: 'guarantees',
      idx: 7,
      registeredAt: '2023-01-02 22:31:51',
      inspectionNum: null,
    })
    await expect(navigation.openRecord('guarantees', 7, 'changes')).resolves.toBe(true)
    // No search for "7" paged through: that matches most records of a big list.
    expect(calls).toEqual([['records.locate', { resource: 'guarantees', idx: 7 }]])
    expect(shown).toEqual(['guarantees'])
    expect(navigation.takeList('guarantees')).toEqual({
      filters: { q: '7', sort: 'latest', from: '2023-01-02', to: '2023-01-02' },
      jump: 'changes',
      reveal: 7,
    })
    // Taken once: the list shown later on its own opens as the user left it.
    expect(navigation.takeList('guarantees')).toBeNull()
  })

  it('opens an inspection by its number', async () => {
    const { navigation, shown } = navigating({
      resource: 'inspections',
      idx: 42,
      registeredAt: '2025-03-02 12:00:00',
      inspectionNum: '240307000151',
    })
    await expect(navigation.openRecord('inspections', 42, 'palette')).resolves.toBe(true)
    expect(navigation.takeList('inspections')).toEqual({
      filters: { q: '240307000151', sort: 'latest' },
      jump: 'palette',
      reveal: 42,
    })
    expect(shown).toEqual(['inspections'])
  })

  it('answers false, and opens nothing, for a record its list does not show', async () => {
    const { navigation, shown } = navigating(null)
    await expect(navigation.openRecord('guarantees', 8, 'reconcile')).resolves.toBe(false)
    expect(navigation.takeList('guarantees')).toBeNull()
    expect(shown).toEqual([])
  })
})

describe('opening a list', () => {
  it('tells a shown list at once, and keeps nothing waiting for it', () => {
    const { navigation, shown } = navigating()
    const heard: ListArrival[] = []
    const stop = navigation.listen('inspections', (arrival) => void heard.push(arrival))
    const arrival: ListArrival = {
      filters: { q: '', sort: 'latest', status: '배송완료' },
      jump: 'dashboard',
    }
    navigation.openList('inspections', arrival)
    expect(heard).toEqual([arrival])
    expect(navigation.takeList('inspections')).toBeNull()
    expect(shown).toEqual(['inspections'])
    // Once the list is gone, a request waits for it to be shown.
    stop()
    navigation.openList('inspections', { filters: { q: '', sort: 'oldest' } })
    expect(heard).toHaveLength(1)
    expect(navigation.takeList('inspections')).toEqual({ filters: { q: '', sort: 'oldest' } })
  })

  it('opens the reconciliation view on a kind, taken once', () => {
    const { navigation, shown } = navigating()
    navigation.openReconcile('cancelled')
    expect(shown).toEqual(['reconcile'])
    expect(navigation.takeReconcileKind()).toBe('cancelled')
    expect(navigation.takeReconcileKind()).toBeNull()
  })
})
