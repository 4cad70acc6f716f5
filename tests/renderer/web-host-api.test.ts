import { afterEach, describe, expect, it, vi } from 'vitest'
import { getApi } from '../../src/renderer/src/lib/api'

/** An `/events` answer carrying these events, then the end of the stream. */
function eventStream(events: readonly { event: string; payload: unknown }[]): Response {
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join('')
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text))
      controller.close()
    },
  })
  return new Response(body, { status: 200 })
}

describe('the web host shim of window.api', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
    delete (window as { api?: unknown }).api
  })

  it('a listener that throws is reported; the others and later events still arrive', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          eventStream([
            { event: 'sync.progress', payload: { n: 1 } },
            { event: 'sync.progress', payload: { n: 2 } },
          ]),
        ),
      ),
    )
    const reported: unknown[] = []
    vi.stubGlobal('reportError', (error: unknown) => reported.push(error))
    const api = getApi()
    const seen: unknown[] = []
    api.on('sync.progress', () => {
      throw new Error('a view broke')
    })
    api.on('sync.progress', (payload) => seen.push(payload))
    await vi.waitFor(() => expect(seen).toEqual([{ n: 1 }, { n: 2 }]))
    expect(reported).toHaveLength(2)
    expect(String(reported[0])).toContain('a view broke')
  })

  it('once the token is known, a call leaves in the task that makes it', async () => {
    history.replaceState(null, '', '#inspections&token=t0ken')
    const sent: { channel: string; token: string | null }[] = []
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit) => {
        sent.push({ channel: url, token: new Headers(init.headers).get('x-app-token') })
        return Promise.resolve(Response.json({ ok: true, value: {} }))
      }),
    )
    const api = getApi()
    expect(location.hash).toBe('#inspections')
    await api.invoke('app.info', {})
    // A screen being built makes its calls one after the other in one task: each is on its
    // way before the task goes on, not after it ends.
    void api.invoke('sync.status', {})
    void api.invoke('views.list', {})
    expect(sent.map((call) => call.channel)).toEqual([
      '/ipc/app.info',
      '/ipc/sync.status',
      '/ipc/views.list',
    ])
    expect(sent.every((call) => call.token === 't0ken')).toBe(true)
  })
})
