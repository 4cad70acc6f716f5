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
})
