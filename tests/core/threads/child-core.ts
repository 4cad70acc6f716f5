import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openConfFile } from '../../../src/core/settings/conf-file'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'

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
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`))
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    keychain: new MemoryStore(),
    keychainService: `${name}-test`,
    openSettings: openConfFile,
    log: () => undefined,
    sandbox: { size },
  })
  return {
    core,
    async dispatch(channel, args) {
      const result = await core.router.dispatch(channel as never, args as never)
      if (!result.ok) throw new Error(`${channel}: ${result.error.code} ${result.error.message}`)
      return result.value
    },
    async close() {
      await core.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
