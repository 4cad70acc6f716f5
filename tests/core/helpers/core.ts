import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { bootWithEmbeddedSandbox, type BootedCore } from '../../support/boot'
import { openConfFile } from '../../../src/core/settings/conf-file'
import type { SecureStore } from '../../../src/core/vault/secure-store'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { ChannelName } from '../../../src/shared/channels'
import type { ChannelArgs, ChannelResult } from '../../../src/shared/contract'
import {
  SOURCE_IMAGE_INDEX_WORKER,
  SOURCE_PAGE_WORKER,
  SOURCE_STORE_WORKER,
} from '../../support/store-worker'

/** What {@link bootForTest} answers. */
export type TestCore = BootedCore & { dataDir: string }

/** A booted core on a temp data folder (or the given one), with a small embedded sandbox. */
export async function bootForTest(options: {
  keychain: SecureStore
  keychainService: string
  dataDir?: string
  keychainTimeoutMs?: number
  log?: (line: string) => void
  /** Records of each kind in the embedded sandbox (50 unless given). */
  sandboxSize?: number
  /** The app syncs the active profile by itself at start (as the hosts do). */
  autoSync?: boolean
}): Promise<TestCore> {
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
    pageWorker: SOURCE_PAGE_WORKER,
    imageIndexWorker: SOURCE_IMAGE_INDEX_WORKER,
    log: options.log ?? (() => undefined),
    sandbox: { size: options.sandboxSize ?? 50 },
    ...(options.autoSync === undefined ? {} : { autoSync: options.autoSync }),
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

/** Saves a profile for `service` with its credentials and makes it the active one; returns its id. */
export async function selectService(
  core: BootedCore,
  service: {
    baseUrl: string
    staticUrl: string
    partnerId: string
    apiKey: string
    apiSecret: string
  },
  name = 'Partner service',
): Promise<string> {
  const { id } = await call(core, 'profiles.save', {
    name,
    baseUrl: service.baseUrl,
    staticUrl: service.staticUrl,
    partnerId: service.partnerId,
    redirectUri: 'https://shop.example.com/done',
  })
  await call(core, 'profiles.setSecret', {
    id,
    apiKey: service.apiKey,
    apiSecret: service.apiSecret,
  })
  await call(core, 'profiles.select', { id })
  return id
}

/**
 * A core on a temp data folder with its embedded sandbox of `size` records
 * per list, an in-memory keychain, and one full sync done.
 */
export async function bootSynced(options: {
  size: number
  now?: () => Date
  saveFile?: (name: string, bytes: Uint8Array) => Promise<string | null>
}): Promise<BootedCore> {
  const core = await bootWithEmbeddedSandbox({
    fetch: globalThis.fetch,
    dataDir: mkdtempSync(join(tmpdir(), 'synced-')),
    host: 'web',
    version: 'test',
    keychain: new MemoryStore(),
    openSettings: openConfFile,
    log: () => undefined,
    sandbox: { size: options.size },
    ...(options.now ? { now: options.now } : {}),
    ...(options.saveFile ? { saveFile: options.saveFile } : {}),
  })
  await call(core, 'sync.start', {})
  await core.sync.idle()
  return core
}
