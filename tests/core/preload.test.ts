import { beforeEach, describe, expect, it, vi } from 'vitest'

/**
 * The preload runs only inside Electron; here `electron` is replaced by a
 * small fake (the only way to load it without an Electron binary) that
 * records what is exposed and what is sent (docs/faults.md F36).
 */
const exposed: Record<string, unknown> = {}
const invoke = vi.fn((..._args: unknown[]) => Promise.resolve({ ok: true, value: 1 }))
const listeners = new Map<string, (...args: unknown[]) => void>()

vi.mock('electron', () => ({
  contextBridge: {
    exposeInMainWorld: (key: string, value: unknown) => {
      exposed[key] = value
    },
  },
  ipcRenderer: {
    invoke: (...args: unknown[]) => invoke(...args),
    on: (channel: string, listener: (...args: unknown[]) => void) =>
      listeners.set(channel, listener),
    removeListener: (channel: string) => listeners.delete(channel),
  },
}))

interface ExposedApi {
  invoke(channel: unknown, args: unknown): Promise<unknown>
  on(event: unknown, listener: unknown): () => void
}

beforeEach(async () => {
  vi.resetModules()
  invoke.mockClear()
  listeners.clear()
  await import('../../src/preload/index')
})

describe('preload surface', () => {
  it('exposes exactly window.api with invoke and on, nothing of ipcRenderer', () => {
    expect(Object.keys(exposed)).toEqual(['api'])
    const api = exposed['api'] as Record<string, unknown>
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
    expect(Object.values(api).every((value) => typeof value === 'function')).toBe(true)
  })

  it('forwards allowlisted channels and refuses others without sending anything', async () => {
    const api = exposed['api'] as ExposedApi
    await api.invoke('brands.search', { query: 'x' })
    expect(invoke).toHaveBeenCalledWith('brands.search', { query: 'x' })
    invoke.mockClear()
    expect(await api.invoke('fs.read', {})).toMatchObject({
      ok: false,
      error: { code: 'unknown_channel' },
    })
    expect(await api.invoke({ toString: () => 'brands.search' }, {})).toMatchObject({ ok: false })
    expect(invoke).not.toHaveBeenCalled()
  })

  it('gives listeners the payload only, never the Electron event, and unsubscribes', () => {
    const api = exposed['api'] as ExposedApi
    const seen: unknown[][] = []
    const off = api.on('data.changed', (...args: unknown[]) => seen.push(args))
    const fakeEvent = { sender: { send: () => undefined }, senderFrame: {} }
    listeners.get('event:data.changed')?.(fakeEvent, { resource: 'brands' })
    expect(seen).toEqual([[{ resource: 'brands' }]])
    off()
    expect(listeners.has('event:data.changed')).toBe(false)
  })

  it('ignores subscriptions to events outside the allowlist', () => {
    const api = exposed['api'] as ExposedApi
    api.on('ipc-internal', () => undefined)
    expect(listeners.size).toBe(0)
  })
})
