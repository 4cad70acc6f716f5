import { EventEmitter } from 'node:events'
import type { App } from 'electron'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { installOrderlyQuit } from '../../../src/main/orderly-quit'

/** A fake of the two `app` members the guard uses; `will-quit` is played by the test. */
class FakeApp extends EventEmitter {
  quits = 0
  quit(): void {
    this.quits += 1
  }
  /** Emits `will-quit`; answers whether a listener held it. */
  willQuit(): boolean {
    let prevented = false
    this.emit('will-quit', { preventDefault: () => (prevented = true) })
    return prevented
  }
}

function setup(close: () => Promise<unknown>) {
  const app = new FakeApp()
  installOrderlyQuit({ app: app as unknown as Pick<App, 'on' | 'quit'>, close, timeoutMs: 5_000 })
  return app
}

afterEach(() => vi.useRealTimers())

describe('quitting waits for the orderly close', () => {
  it('holds the quit until close() settles, then quits, and lets the second will-quit pass', async () => {
    let done: () => void = () => undefined
    const close = vi.fn(() => new Promise<void>((resolve) => (done = resolve)))
    const app = setup(close)
    expect(app.willQuit()).toBe(true)
    expect(close).toHaveBeenCalledTimes(1)
    expect(app.quits).toBe(0)
    // Quitting again while closing neither closes twice nor lets the quit through.
    expect(app.willQuit()).toBe(true)
    expect(close).toHaveBeenCalledTimes(1)
    done()
    await vi.waitFor(() => expect(app.quits).toBe(1))
    expect(app.willQuit()).toBe(false)
  })

  it('quits anyway when the close hangs past the bound', () => {
    vi.useFakeTimers()
    const app = setup(() => new Promise(() => undefined))
    expect(app.willQuit()).toBe(true)
    vi.advanceTimersByTime(4_999)
    expect(app.quits).toBe(0)
    vi.advanceTimersByTime(1)
    expect(app.quits).toBe(1)
    expect(app.willQuit()).toBe(false)
  })

  it('quits when the close fails, or throws at once', async () => {
    const failing = setup(() => Promise.reject(new Error('disk')))
    failing.willQuit()
    await vi.waitFor(() => expect(failing.quits).toBe(1))
    const throwing = setup(() => {
      throw new Error('sync')
    })
    throwing.willQuit()
    await vi.waitFor(() => expect(throwing.quits).toBe(1))
  })
})
