import { afterAll, afterEach, beforeAll } from 'vitest'
import { startSandbox, type Sandbox } from '../../src/sandbox'
import type { ChannelResult } from '../../src/shared/contract'
import type { BootedCore } from './boot'

/**
 * A second partner service beside the built-in Sandbox, for the tests that
 * save another account: started once for the file (seed 7, `size` records
 * of each kind) and stopped after it; the cores a test keeps are closed
 * after that test.
 */
export interface SecondShop {
  /** The running service (from the file's first test on). */
  readonly sandbox: Sandbox
  /** Keeps `core` to be closed after the test; answers it. */
  keep<T extends BootedCore>(core: T): T
  /** Saves the service as the account "두 번째 매장", with `more` (a team server); answers its id. */
  save(core: BootedCore, more?: { readonly team?: Record<string, unknown> }): Promise<string>
}

export function secondShop(size: number): SecondShop {
  let sandbox: Sandbox | undefined
  const cores: BootedCore[] = []
  beforeAll(async () => {
    sandbox = await startSandbox({ seed: 7, size })
  })
  afterAll(async () => {
    await sandbox?.close()
  })
  afterEach(async () => {
    for (const core of cores.splice(0)) await core.close()
  })
  const running = (): Sandbox => {
    if (!sandbox) throw new Error('the second shop starts before the first test')
    return sandbox
  }
  return {
    get sandbox() {
      return running()
    },
    keep(core) {
      cores.push(core)
      return core
    },
    async save(core, more = {}) {
      const shop = running()
      const answer = await core.router.dispatch('profiles.save', {
        name: '두 번째 매장',
        baseUrl: shop.baseUrl,
        staticUrl: shop.staticUrl,
        partnerId: shop.partnerId,
        redirectUri: 'https://shop.example.com/wallet/done',
        ...more,
      })
      if (!answer.ok) throw new Error(`profiles.save: ${answer.error.code} ${answer.error.message}`)
      return (answer.value as ChannelResult<'profiles.save'>).id
    },
  }
}
