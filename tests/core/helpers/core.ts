import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../../src/core/boot'
import { openConfFile } from '../../../src/core/settings/conf-file'
import type { SecureStore } from '../../../src/core/vault/secure-store'
import type { ChannelName } from '../../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../../src/shared/contract'
import { SOURCE_STORE_WORKER } from './store-worker'

/** A booted core on a temp data folder (or the given one), with a small embedded sandbox. */
export async function bootForTest(options: {
  keychain: SecureStore
  keychainService: string
  dataDir?: string
  keychainTimeoutMs?: number
  log?: (line: string) => void
}): Promise<BootedCore & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'core-'))
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir,
    host: 'web',
    version: '0.0.0-test',
    keychain: options.keychain,
    keychainService: options.keychainService,
    ...(options.keychainTimeoutMs === undefined
      ? {}
      : { keychainTimeoutMs: options.keychainTimeoutMs }),
    openSettings: openConfFile,
    storeWorker: SOURCE_STORE_WORKER,
    log: options.log ?? (() => undefined),
    sandbox: { size: 50 },
  })
  return Object.assign(core, { dataDir })
}

/** Calls a channel and returns its value, failing the test with the error otherwise. */
export async function call<C extends ChannelName>(
  core: BootedCore,
  channel: C,
  args: ChannelArgs<C> | Record<string, unknown> = {},
): Promise<ChannelResult<C>> {
  const result = await core.router.dispatch(channel, args)
  if (!result.ok) throw new Error(`${channel} failed: ${result.error.code} ${result.error.message}`)
  return result.value as ChannelResult<C>
}
