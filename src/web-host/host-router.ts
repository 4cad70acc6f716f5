import type { Router } from '../core/router'
import type { PartnerKind } from '../shared/domain'
import { SANDBOX_PROFILE_ID } from '../shared/profiles'

/**
 * The message of a call refused because the host serves the Sandbox only, and the flag that lifts it.
 * @internal
 */
export const SANDBOX_ONLY_MESSAGE =
  'The web host works on the Sandbox profile only; start it with --data-dir DIR --other-profiles to use another.'

/**
 * The message of a wallet flow refused on a production account.
 * @internal
 */
export const PRODUCTION_WALLET_MESSAGE =
  'The web host runs no wallet flow on a production account: its address, with the API key, would stay in the browser’s history. Use the desktop app.'

/** What the guard reads of the active profile. */
export interface ActiveProfileInfo {
  readonly id: string
  readonly kind: 'sandbox' | PartnerKind
}

/**
 * The web host's router (`host-options.ts`). Without `--other-profiles`
 * only the Sandbox profile can be made active and no wallet flow starts on
 * another. Always: no wallet flow starts on a production account, whose
 * wallet page's address (with the key) an ordinary browser shows and keeps
 * in its history.
 */
export function webHostRouter(
  router: Router,
  options: { readonly sandboxOnly: boolean; readonly active: () => ActiveProfileInfo },
): Router {
  const refuse = (message: string, reason: 'sandbox_only' | 'production_wallet') =>
    Promise.resolve({
      ok: false as const,
      error: { code: 'invalid_argument' as const, message, reason },
    })
  return {
    channels: router.channels,
    dispatch(channel, args) {
      if (options.sandboxOnly) {
        const selectsAnother =
          channel === 'profiles.select' &&
          (typeof args !== 'object' ||
            args === null ||
            (args as { id?: unknown }).id !== SANDBOX_PROFILE_ID)
        const onAnother = channel === 'wallet.start' && options.active().id !== SANDBOX_PROFILE_ID
        if (selectsAnother || onAnother) return refuse(SANDBOX_ONLY_MESSAGE, 'sandbox_only')
      }
      if (channel === 'wallet.start' && options.active().kind === 'production') {
        return refuse(PRODUCTION_WALLET_MESSAGE, 'production_wallet')
      }
      return router.dispatch(channel, args)
    },
  }
}
