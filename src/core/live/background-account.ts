import { AppError } from '../app-error'
import type { StoreOwner } from '../owner/store-owner'
import type { ActiveProfile } from '../profiles/profile-service'
import type { LiveStatus } from '../../shared/live'
import type { BackgroundScope, BackgroundTurns } from './background-accounts'
import { openLiveScope, type LiveScope, type LiveScopeDeps } from './live-scope'
import { LiveSchedule } from './schedule'

/**
 * One account kept current in the background (docs/live.md "Every
 * account"): its own schedule, started at once, and, opened lazily at its
 * first run, its own live scope ({@link openLiveScope}: store, sync engine
 * and notifications). Its runs take turns with the other accounts' and give
 * way to the active account's ({@link BackgroundTurns}). Its syncs' events
 * stay its own (the window shows the active account); its notifications
 * name the account.
 */

/** What a background scope is built from: the app's shared parts. */
export interface BackgroundAccountDeps extends LiveScopeDeps {
  readonly turns: BackgroundTurns
  readonly intervalMs?: number
}

/** A background scope as tests look at it: its owner, once opened. */
export interface BackgroundAccountScope extends BackgroundScope {
  /** The store's owner, once the first run opened it; null before. */
  readonly store: StoreOwner | null
}

/** Builds the background scope of `profile`; its schedule is started by the caller. */
export function openBackgroundAccount(
  deps: BackgroundAccountDeps,
  profile: ActiveProfile,
  onStatus: (status: LiveStatus) => void,
): BackgroundAccountScope {
  const { id, name } = profile.summary
  let opened: LiveScope | null = null
  let closing: Promise<void> | null = null

  const open = (): LiveScope => {
    if (opened) return opened
    if (closing) throw new AppError('cancelled', 'The account is no longer kept current.')
    opened = openLiveScope(deps, profile, { armDigest: true })
    return opened
  }

  const live = new LiveSchedule({
    // Each run waits its turn; the first opens the account's threads.
    steps: deps.turns.steps(() => open().steps),
    settings: () => ({ intervalMinutes: deps.live().intervalMinutes }),
    clock: deps.clock,
    ...(deps.intervalMs ? { intervalMs: deps.intervalMs } : {}),
    onStatus: (status) => {
      opened?.notifications.health(status)
      onStatus(status)
    },
  })

  return {
    id,
    name,
    live,
    get store() {
      return opened?.store ?? null
    },
    close() {
      closing ??= (async () => {
        if (!opened) await live.stop()
        // Opened by an earlier run, or by one that started meanwhile: it stops the schedule itself.
        await opened?.close(live)
      })()
      return closing
    },
  }
}
