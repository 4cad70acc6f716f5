import { EventEmitter } from 'node:events'
import { createServer, request, type RequestOptions, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HttpExecutor } from 'builder-util-runtime'
import { AppUpdater } from 'electron-updater'
import type { AppAdapter } from 'electron-updater/out/AppAdapter'
import type { DownloadExecutorResult } from 'electron-updater/out/AppUpdater'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  UPDATE_CHECK_MS,
  answerOf,
  manualCheckNotice,
  readyQuestion,
  refusedNotice,
  startUpdates,
  updatesEnabled,
  type UpdateDialog,
  type UpdaterLike,
} from '../../../src/main/updates'
import type { DownloadedUpdate, ReleaseCheck } from '../../../src/core/updates/release-signature'

/** A fake of the updater slice: checks answer what the test says, events are played by the test. */
class FakeUpdater extends EventEmitter implements UpdaterLike {
  autoDownload = false
  autoInstallOnAppQuit = true
  checks = 0
  installs = 0
  answer: () => Promise<{ isUpdateAvailable: boolean } | null> = async () => ({
    isUpdateAvailable: false,
  })
  checkForUpdates() {
    this.checks += 1
    return this.answer()
  }
  quitAndInstall(): void {
    this.installs += 1
  }
}

/** Timers the test runs by hand. */
function fakeTimers() {
  const runs: { run: () => void; ms: number }[] = []
  return {
    runs,
    cleared: 0,
    setInterval(run: () => void, ms: number) {
      runs.push({ run, ms })
      return runs.length
    },
    clearInterval() {
      this.cleared += 1
    },
  }
}

/** What electron-updater reports of a download (its `update-downloaded` event). */
function downloaded(version: string): DownloadedUpdate {
  return { version, downloadedFile: `/cache/pending/Appraisal-Desk-${version}.AppImage`, files: [] }
}

function start(
  updater: FakeUpdater | null,
  buttons: number[] = [],
  verify: (update: DownloadedUpdate) => Promise<ReleaseCheck> = async (update) => ({
    ok: true,
    version: update.version,
  }),
) {
  const asked: UpdateDialog[] = []
  const log: string[] = []
  const timers = fakeTimers()
  const controls = startUpdates({
    updater,
    locale: () => 'ko',
    ask: async (dialog) => {
      asked.push(dialog)
      return buttons.shift() ?? 2
    },
    log: (line) => log.push(line),
    verify,
    timers,
  })
  return { controls, asked, log, timers }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('when updates run', () => {
  it('only in a packaged app built with a feed', () => {
    expect(updatesEnabled({ packaged: true, feedConfigured: true })).toBe(true)
    expect(updatesEnabled({ packaged: true, feedConfigured: false })).toBe(false)
    expect(updatesEnabled({ packaged: false, feedConfigured: true })).toBe(false)
  })

  it('checks at start and once a day, downloading in the background, never installing unasked', async () => {
    const updater = new FakeUpdater()
    const { controls, timers, asked } = start(updater)
    await settle()
    expect(updater.checks).toBe(1)
    expect(updater.autoDownload).toBe(true)
    expect(updater.autoInstallOnAppQuit).toBe(false)
    expect(timers.runs.map((timer) => timer.ms)).toEqual([UPDATE_CHECK_MS])
    timers.runs[0]?.run()
    await settle()
    expect(updater.checks).toBe(2)
    expect(asked).toEqual([])
    controls.stop()
    expect(timers.cleared).toBe(1)
  })
})

describe('asking the staff', () => {
  it('asks once a version has downloaded; "when I quit" turns install-on-quit on', async () => {
    const updater = new FakeUpdater()
    const { controls, asked } = start(updater, [1])
    await settle()
    updater.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    expect(asked).toHaveLength(1)
    expect(asked[0]?.message).toContain('0.2.0')
    expect(asked[0]?.buttons).toEqual(['지금 다시 시작', '종료할 때 설치', '나중에'])
    expect(updater.autoInstallOnAppQuit).toBe(true)
    expect(updater.installs).toBe(0)
    expect(controls.state()).toEqual({ kind: 'ready', version: '0.2.0', onQuit: true })
    // The same version downloaded again (a later check) is not asked twice.
    updater.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    expect(asked).toHaveLength(1)
  })

  it('"restart now" installs; "later" or a closed dialog leaves it', async () => {
    const now = new FakeUpdater()
    start(now, [0])
    now.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    expect(now.installs).toBe(1)
    const later = new FakeUpdater()
    start(later, [2])
    later.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    expect(later.installs).toBe(0)
    expect(later.autoInstallOnAppQuit).toBe(false)
    expect(answerOf(-1)).toBe('later')
  })

  it('logs a failed background check without a dialog; a manual check answers with one', async () => {
    const updater = new FakeUpdater()
    updater.answer = async () => {
      throw new Error('ECONNREFUSED')
    }
    const { controls, asked, log } = start(updater)
    await settle()
    expect(asked).toEqual([])
    expect(log.join('\n')).toContain('ECONNREFUSED')
    await controls.check(true)
    expect(asked[0]?.message).toBe('업데이트를 확인하지 못했습니다.')
    updater.answer = async () => ({ isUpdateAvailable: false })
    await controls.check(true)
    expect(asked[1]?.message).toBe('최신 버전을 사용하고 있습니다.')
  })

  it('an update that fails the signature check is never offered nor installed: logged, said once', async () => {
    const updater = new FakeUpdater()
    const { controls, asked, log } = start(updater, [0, 0], async () => ({
      ok: false,
      reason: 'bad_signature',
      detail: "release.json is not signed with the app's release key",
    }))
    await settle()
    updater.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    await settle()
    expect(updater.installs).toBe(0)
    expect(updater.autoInstallOnAppQuit).toBe(false)
    expect(controls.state()).toEqual({ kind: 'refused', version: '0.2.0' })
    expect(asked).toHaveLength(1)
    expect(asked[0]?.message).toBe(
      '받은 업데이트 0.2.0은(는) Appraisal Desk의 릴리스 키로 서명되지 않아 설치하지 않습니다.',
    )
    expect(asked[0]?.buttons).toEqual(['닫기'])
    expect(log).toContain(
      "update 0.2.0 refused (bad_signature): release.json is not signed with the app's release key",
    )
    // Downloaded again by a later check: refused again, not asked again.
    updater.emit('update-downloaded', downloaded('0.2.0'))
    await settle()
    expect(asked).toHaveLength(1)
    // The Help menu's check says so.
    await controls.check(true)
    expect(asked[1]?.message).toContain('서명되지 않아')
    expect(refusedNotice('en', '0.2.0').message).toBe(
      'The downloaded update 0.2.0 is not signed with Appraisal Desk’s release key, so it will not be installed.',
    )
  })

  it('says updates are off when the build has no feed', async () => {
    const { controls, asked } = start(null)
    expect(controls.state()).toEqual({ kind: 'off' })
    await controls.check(true)
    expect(asked[0]?.message).toContain('업데이트 주소가 없어')
    expect(manualCheckNotice('en', { kind: 'downloading', percent: 3 })).toBeNull()
    expect(readyQuestion('en', '1.0.0').buttons).toHaveLength(3)
  })
})

/** Plain Node HTTP for electron-updater (its own executor needs Electron's `net`). */
class NodeHttpExecutor extends HttpExecutor<ReturnType<typeof request>> {
  createRequest(
    options: RequestOptions,
    callback: (response: unknown) => void,
  ): ReturnType<typeof request> {
    return request(options, callback)
  }
}

/**
 * electron-updater's own `AppUpdater` on a fake app adapter (no Electron),
 * configured as a packaged app is: by the `app-update.yml` electron-builder
 * writes from the `publish` setting.
 */
class FeedReader extends AppUpdater {
  constructor(version: string, url: string) {
    const cache = mkdtempSync(join(tmpdir(), 'ad-upd-'))
    const app: AppAdapter = {
      version,
      name: 'Appraisal Desk',
      isPackaged: true,
      appUpdateConfigPath: join(cache, 'app-update.yml'),
      userDataPath: cache,
      baseCachePath: cache,
      whenReady: () => Promise.resolve(),
      relaunch: () => undefined,
      quit: () => undefined,
      onQuit: () => undefined,
    }
    writeFileSync(app.appUpdateConfigPath, `provider: generic\nurl: ${url}\n`)
    super(null, app)
    ;(this as unknown as { httpExecutor: NodeHttpExecutor }).httpExecutor = new NodeHttpExecutor()
    this.autoDownload = false
    this.logger = null
  }
  downloads = 0
  /** Records that a download began (the schedule turns `autoDownload` on); fetches nothing. */
  protected doDownloadUpdate(): Promise<DownloadExecutorResult> {
    this.downloads += 1
    return Promise.resolve([] as unknown as DownloadExecutorResult)
  }
  quitAndInstall(): void {}
}

describe('electron-updater against a local feed', () => {
  let server: Server
  let url = ''
  const requested: string[] = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      requested.push(req.url ?? '')
      if (!/^\/latest(-linux|-mac)?\.yml/.test(req.url ?? '')) {
        res.writeHead(404).end()
        return
      }
      res.writeHead(200, { 'content-type': 'text/yaml' })
      res.end(
        [
          'version: 0.2.0',
          'files:',
          '  - url: Appraisal-Desk-0.2.0.AppImage',
          '    sha512: ' + 'A'.repeat(86) + '==',
          '    size: 1234',
          'path: Appraisal-Desk-0.2.0.AppImage',
          'sha512: ' + 'A'.repeat(86) + '==',
          "releaseDate: '2026-11-20T00:00:00.000Z'",
          '',
        ].join('\n'),
      )
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('finds the newer version in the feed’s latest.yml', async () => {
    const result = await new FeedReader('0.1.0', url).checkForUpdates()
    expect(requested.some((path) => path.includes('.yml'))).toBe(true)
    expect(result?.isUpdateAvailable).toBe(true)
    expect(result?.updateInfo.version).toBe('0.2.0')
  })

  it('finds nothing when the app is as new or newer', async () => {
    expect((await new FeedReader('0.2.0', url).checkForUpdates())?.isUpdateAvailable).toBe(false)
    expect((await new FeedReader('0.3.0', url).checkForUpdates())?.isUpdateAvailable).toBe(false)
  })

  it('drives the schedule end to end: the real updater’s answer becomes the state', async () => {
    const reader = new FeedReader('0.1.0', url)
    const { controls } = startUpdatesFor(reader)
    await controls.check(false)
    expect(controls.state()).toEqual({ kind: 'downloading', percent: 0 })
    expect(reader.downloads).toBe(1)
    controls.stop()
  })
})

function startUpdatesFor(updater: UpdaterLike) {
  const timers = fakeTimers()
  return {
    controls: startUpdates({
      updater,
      locale: () => 'en',
      ask: async () => 2,
      log: () => undefined,
      verify: async (update) => ({ ok: true, version: update.version }),
      timers,
    }),
  }
}

describe('the feed set at package time', () => {
  it('comes from UPDATE_FEED_URL, HTTPS only; none when unset', async () => {
    const { feedArgs } = await import('../../../scripts/package-feed')
    expect(feedArgs({})).toEqual([])
    expect(feedArgs({ UPDATE_FEED_URL: ' ' })).toEqual([])
    expect(feedArgs({ UPDATE_FEED_URL: 'https://updates.example/desk/' })).toEqual([
      '-c.publish.provider=generic',
      '-c.publish.url=https://updates.example/desk/',
    ])
    expect(() => feedArgs({ UPDATE_FEED_URL: 'http://updates.example/' })).toThrow(/https/)
    expect(() => feedArgs({ UPDATE_FEED_URL: 'not a url' })).toThrow(/not an address/)
  })
})
