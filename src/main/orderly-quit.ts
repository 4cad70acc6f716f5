import type { App } from 'electron'

/** How long quitting waits for the orderly close before it quits anyway. */
const QUIT_CLOSE_TIMEOUT_MS = 5_000

/** What the quit guard needs of Electron's `app` and of the clock. */
export interface OrderlyQuitDeps {
  readonly app: Pick<App, 'on' | 'quit'>
  /** The orderly close: pending requests answered, the store closed cleanly, then the sandbox. */
  readonly close: () => Promise<unknown>
  readonly timeoutMs?: number
  readonly setTimeout?: (run: () => void, ms: number) => unknown
  readonly clearTimeout?: (timer: unknown) => void
  readonly log?: (message: string) => void
}

/**
 * Makes quitting wait for the orderly close, bounded: the first `will-quit`
 * is held (`preventDefault`), `close()` runs, and the app quits again when
 * it settles or after `timeoutMs`, whichever comes first. That second
 * `will-quit` passes. Electron does not wait for a promise in a `will-quit`
 * listener, so without the hold the close would never finish.
 */
export function installOrderlyQuit(deps: OrderlyQuitDeps): void {
  const wait = deps.setTimeout ?? ((run, ms) => setTimeout(run, ms))
  const stop = deps.clearTimeout ?? ((timer) => clearTimeout(timer as NodeJS.Timeout))
  let state: 'running' | 'closing' | 'closed' = 'running'
  deps.app.on('will-quit', (event) => {
    if (state === 'closed') return
    event.preventDefault()
    if (state === 'closing') return
    state = 'closing'
    const finish = () => {
      if (state === 'closed') return
      state = 'closed'
      stop(timer)
      deps.app.quit()
    }
    const timer = wait(() => {
      deps.log?.('[quit] the orderly close did not finish in time; quitting anyway')
      finish()
    }, deps.timeoutMs ?? QUIT_CLOSE_TIMEOUT_MS)
    let closing: Promise<unknown>
    try {
      closing = deps.close()
    } catch (error) {
      closing = Promise.reject(error)
    }
    closing.then(finish, (error: unknown) => {
      deps.log?.(
        `[quit] the orderly close failed: ${error instanceof Error ? error.name : 'error'}`,
      )
      finish()
    })
  })
}
