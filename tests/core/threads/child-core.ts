import { rmSync } from 'node:fs'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { BootedCore } from '../../support/boot'
import { bootForTest, call } from '../helpers/core'

/** A core started in a child process of its own, as a host starts it, for the main-thread tests. */
export interface ChildCore {
  readonly core: BootedCore
  /** Runs one call; a failed one throws with its code. */
  dispatch(channel: string, args: unknown): Promise<unknown>
  /** Closes the core and removes its data folder. */
  close(): Promise<void>
}

/** Starts a core over a temporary data folder and an embedded sandbox of `size` records. */
export async function startChildCore(name: string, size: number): Promise<ChildCore> {
  const core = await bootForTest({
    keychain: new MemoryStore(),
    keychainService: `${name}-test`,
    sandboxSize: size,
  })
  return {
    core,
    dispatch: (channel, args) => call(core, channel as never, args as never),
    async close() {
      await core.close()
      rmSync(core.dataDir, { recursive: true, force: true })
    },
  }
}
