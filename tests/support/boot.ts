import { createCore, type Core, type CoreDeps } from '../../src/core/app'
import { startEmbeddedSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox'
import { SANDBOX_ANCHOR } from './anchor'
import { SOURCE_IMAGE_INDEX_WORKER, SOURCE_PAGE_WORKER, SOURCE_STORE_WORKER } from './store-worker'

/**
 * Options of {@link bootWithEmbeddedSandbox}: core's parts, with the
 * sandbox's options in place of a profile; the database owner, the page
 * thread and the image index run from their TypeScript sources unless other entries are given.
 */
export interface BootOptions extends Omit<
  CoreDeps,
  'sandbox' | 'storeWorker' | 'pageWorker' | 'imageIndexWorker'
> {
  readonly sandbox?: SandboxOptions
  readonly storeWorker?: CoreDeps['storeWorker']
  readonly pageWorker?: CoreDeps['pageWorker']
  readonly imageIndexWorker?: CoreDeps['imageIndexWorker']
}

/** A core with the built-in "Sandbox" profile, with the sandbox the test owns. */
export interface BootedCore extends Core {
  readonly sandbox: Sandbox
}

/**
 * What both hosts do at start, for tests: start the embedded sandbox, hand
 * its description to core as the built-in profile, and close the sandbox
 * after core. The sandbox's data ends on the tests' anchor unless its options
 * set another.
 */
export async function bootWithEmbeddedSandbox(options: BootOptions): Promise<BootedCore> {
  const { sandbox: sandboxOptions, ...deps } = options
  const embedded = await startEmbeddedSandbox({ anchor: SANDBOX_ANCHOR, ...sandboxOptions })
  const core = createCore({
    storeWorker: SOURCE_STORE_WORKER,
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    ...deps,
    sandbox: embedded.profile,
  })
  // Not a spread: `sync` and `storeNotice` are getters that follow the active profile.
  const closeCore = core.close.bind(core)
  return Object.defineProperties(core, {
    sandbox: { value: embedded.sandbox, enumerable: true },
    close: {
      value: async () => {
        await closeCore()
        await embedded.sandbox.close()
      },
    },
  }) as BootedCore
}
