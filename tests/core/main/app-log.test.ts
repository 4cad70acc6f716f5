import { EventEmitter } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import log from 'electron-log/node'
import { describe, expect, it } from 'vitest'
import {
  configureLog,
  coreLogTo,
  installCrashGuards,
  redactLine,
  rotateLog,
  watchRenderer,
  type AskDialog,
  type LoggerLike,
} from '../../../src/main/app-log'
import { Redactor } from '../../../src/core/redact'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { bootForTest } from '../helpers/core'

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('the log file', () => {
  it('has secrets and wallet addresses redacted, through electron-log’s own file transport', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ad-log-'))
    const logger = log.create({ logId: `t${Date.now()}` })
    logger.transports.file.resolvePathFn = () => join(dir, 'main.log')
    logger.transports.file.sync = true
    logger.transports.console.level = false
    const redactor = new Redactor()
    redactor.add('sk_live_ABCDEFGH12345678')
    const path = configureLog(
      logger as unknown as LoggerLike,
      () => (text) => redactor.redact(text),
    )
    expect(path).toBe(join(dir, 'main.log'))
    logger.error('sync failed with key', 'sk_live_ABCDEFGH12345678', { n: 1 })
    logger.info('opened https://wallet.example/link/wallet/AKEY0123456789?x=1 for a member')
    const text = readFileSync(path, 'utf8')
    expect(text).not.toContain('ABCDEFGH12345678')
    expect(text).toContain('[redacted]')
    expect(text).toContain('{ n: 1 }')
    expect(text).not.toContain('AKEY0123456789')
    expect(text).toContain('https://wallet.example/[wallet address redacted] for a member')
  })

  it('gets core’s own lines, through the same redaction, and not the console', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ad-core-log-'))
    const logger = log.create({ logId: `c${Date.now()}` })
    logger.transports.file.resolvePathFn = () => join(dir, 'main.log')
    logger.transports.file.sync = true
    const consoleLines: unknown[] = []
    logger.transports.console = Object.assign((message: unknown) => consoleLines.push(message), {
      level: false as const,
    }) as unknown as typeof logger.transports.console
    const dataDir = mkdtempSync(join(tmpdir(), 'ad-core-data-'))
    writeFileSync(join(dataDir, 'settings.json'), 'not json')
    let redact = (text: string): string => text
    const path = configureLog(logger as unknown as LoggerLike, () => redact)
    const core = await bootForTest({
      keychain: new MemoryStore(),
      keychainService: 'test',
      dataDir,
      log: coreLogTo(logger as unknown as LoggerLike),
    })
    try {
      redact = (text) => core.redactor.redact(text)
      core.redactor.add('sk_live_CORE_SECRET_1234')
      coreLogTo(logger as unknown as LoggerLike)(
        '[wallet] opened https://wallet.example/p/sk_live_CORE_SECRET_1234/wallet/m1 for a member',
      )
    } finally {
      await core.close()
    }
    const text = readFileSync(path, 'utf8')
    expect(text).toMatch(/\[settings\] settings\.json could not be used/)
    expect(text).toContain('https://wallet.example/[wallet address redacted] for a member')
    expect(text).not.toContain('CORE_SECRET')
    expect(consoleLines).toEqual([])
  })

  it('rotates into numbered files, keeping a few', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ad-rot-'))
    const file = join(dir, 'main.log')
    for (const round of ['a', 'b', 'c', 'd', 'e']) {
      writeFileSync(file, round)
      rotateLog(file, 3)
    }
    expect(existsSync(file)).toBe(false)
    expect(readFileSync(join(dir, 'main.1.log'), 'utf8')).toBe('e')
    expect(readFileSync(join(dir, 'main.3.log'), 'utf8')).toBe('c')
    expect(existsSync(join(dir, 'main.4.log'))).toBe(false)
  })

  it('leaves text without secrets alone', () => {
    expect(redactLine('sync done: 500 records', (text) => text)).toBe('sync done: 500 records')
  })
})

function recordingAsk(buttons: number[] = []) {
  const asked: Parameters<AskDialog>[0][] = []
  const ask: AskDialog = async (dialog) => {
    asked.push(dialog)
    return buttons.shift() ?? 0
  }
  return { asked, ask }
}

describe('errors nobody caught in main', () => {
  it('are logged and shown, one dialog at a time', async () => {
    const proc = new EventEmitter()
    const errors: string[] = []
    const { asked, ask } = recordingAsk()
    installCrashGuards({
      process: proc as unknown as NodeJS.Process,
      log: { error: (line: unknown) => errors.push(String(line)) },
      ask,
      locale: () => 'en',
      logFile: () => '/logs/main.log',
    })
    proc.emit('uncaughtException', new Error('boom'))
    proc.emit('unhandledRejection', 'late')
    expect(errors[0]).toContain('boom')
    expect(errors[1]).toContain('late')
    expect(asked).toHaveLength(1)
    expect(asked[0]?.detail).toContain('/logs/main.log')
    await settle()
    proc.emit('unhandledRejection', new Error('again'))
    expect(asked).toHaveLength(2)
    // A listener is what keeps Node from ending the process on an uncaught exception.
    expect(proc.listenerCount('uncaughtException')).toBe(1)
  })
})

class FakeContents extends EventEmitter {
  reloads = 0
  destroyed = false
  reload(): void {
    this.reloads += 1
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

describe('a crashed or hung page', () => {
  function watch(buttons: number[]) {
    const contents = new FakeContents()
    const { asked, ask } = recordingAsk(buttons)
    watchRenderer({ contents, log: { warn: () => undefined }, ask, locale: () => 'ko' })
    return { contents, asked }
  }

  it('offers a reload after a crash, not after a clean exit', async () => {
    const { contents, asked } = watch([0])
    contents.emit('render-process-gone', {}, { reason: 'clean-exit' })
    expect(asked).toHaveLength(0)
    contents.emit('render-process-gone', {}, { reason: 'crashed' })
    await settle()
    expect(asked[0]?.buttons[0]).toBe('다시 불러오기')
    expect(contents.reloads).toBe(1)
  })

  it('offers a reload when it hangs; waiting, or a hang that ends first, reloads nothing', async () => {
    const waited = watch([1])
    waited.contents.emit('unresponsive')
    waited.contents.emit('unresponsive')
    await settle()
    expect(waited.asked).toHaveLength(1)
    expect(waited.contents.reloads).toBe(0)
    const recovered = watch([0])
    recovered.contents.emit('unresponsive')
    recovered.contents.emit('responsive')
    await settle()
    expect(recovered.contents.reloads).toBe(0)
    const reloaded = watch([0])
    reloaded.contents.emit('unresponsive')
    await settle()
    expect(reloaded.contents.reloads).toBe(1)
  })
})
