import type { Router } from '../core/router'
import { SANDBOX_PROFILE_ID } from '../shared/profiles'

/** The message of a refused call: what the host allows, and the flag that lifts it. */
export const SANDBOX_ONLY_MESSAGE =
  'The web host works on the Sandbox profile only; start it with --allow-real-profiles to use another.'

/**
 * The web host's router unless `--allow-real-profiles` is given: only the
 * Sandbox profile can be made active, and no wallet flow starts on another.
 * The web host is a development and test host: an ordinary browser shows a
 * wallet page's address (with the key) and keeps its history, so a
 * production profile never runs there by default (`host-options.ts`).
 */
export function sandboxOnlyRouter(router: Router, activeId: () => string): Router {
  return {
    channels: router.channels,
    dispatch(channel, args) {
      const selectsAnother =
        channel === 'profiles.select' &&
        (typeof args !== 'object' ||
          args === null ||
          (args as { id?: unknown }).id !== SANDBOX_PROFILE_ID)
      const onAnother = channel === 'wallet.start' && activeId() !== SANDBOX_PROFILE_ID
      if (selectsAnother || onAnother) {
        return Promise.resolve({
          ok: false,
          error: {
            code: 'invalid_argument',
            message: SANDBOX_ONLY_MESSAGE,
            reason: 'sandbox_only',
          },
        })
      }
      return router.dispatch(channel, args)
    },
  }
}
