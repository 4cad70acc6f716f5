import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import type { WalletFlowHandle } from '../../../src/core/wallet/wallet-service'
import { FOREIGN_WALLET_URL } from '../../../src/sandbox/wallet'
import type { Result } from '../../../src/shared/errors'
import type {
  WalletExportResult,
  WalletHistoryPage,
  WalletOutcome,
} from '../../../src/shared/wallet'
import { bootForTest, call } from '../helpers/core'

/**
 * The flow service through the real router against the real sandbox over
 * HTTP. The only fake is the window: a small fetch-driven "browser" that
 * feeds the flow what Electron's window would (each redirect, each page's
 * status, each link followed), since no Electron binary runs here.
 */

let core: BootedCore
let opened: WalletFlowHandle[]
let outcomes: WalletOutcome[]
let logs: string[]
let answers: unknown[]

beforeEach(async () => {
  logs = []
  core = await bootForTest({
    keychain: new MemoryStore(),
    keychainService: 'wallet-test',
    log: (line) => logs.push(line),
  })
  opened = []
  outcomes = []
  answers = []
  core.wallet.useWindowHost({ open: (flow) => opened.push(flow) })
  core.events.subscribe((event, payload) => {
    if (event === 'wallet.outcome') outcomes.push(payload as WalletOutcome)
  })
})

afterEach(async () => {
  vi.useRealTimers()
  await core.close()
})

/** Calls a channel and keeps its answer for the key-leak check. */
async function ipc<T = unknown>(
  channel: string,
  args: Record<string, unknown>,
): Promise<Result<T>> {
  const answer = (await core.router.dispatch(channel, args)) as Result<T>
  answers.push(answer)
  return answer
}

/** Loads `url` the way the window would: redirects fed one by one, then the page's status. */
async function load(flow: WalletFlowHandle, start: string, cookies: string[]): Promise<string> {
  let url = start
  for (let hop = 0; hop < 5; hop += 1) {
    const response = await fetch(url, {
      redirect: 'manual',
      headers: cookies.length ? { cookie: cookies.join('; ') } : {},
    })
    const cookie = response.headers.get('set-cookie')
    if (cookie) cookies.push(cookie.split(';')[0] ?? '')
    const location = response.headers.get('location')
    if (response.status >= 300 && response.status < 400 && location) {
      const next = new URL(location, url).toString()
      if (flow.feed({ type: 'navigate', url: next, via: 'redirect' }).action !== 'allow') return ''
      url = next
      continue
    }
    flow.feed({ type: 'loaded', status: response.status })
    return response.text()
  }
  throw new Error('too many redirects')
}

/** Follows the page's link (or form) whose text contains `label`. */
async function click(flow: WalletFlowHandle, page: string, label: string, cookies: string[]) {
  const link = new RegExp(`href="([^"]+)"[^>]*>${label}`).exec(page)?.[1]
  if (!link) throw new Error(`no link ${label} in ${page}`)
  const target = new URL(link.replace(/&#38;/g, '&'), core.sandbox.baseUrl).toString()
  if (flow.feed({ type: 'navigate', url: target, via: 'navigate' }).action !== 'allow') return ''
  return load(flow, target, cookies)
}

async function startFlow(args: Record<string, unknown>): Promise<WalletFlowHandle> {
  const answer = await ipc('wallet.start', args)
  if (!answer.ok) throw new Error(answer.error.message)
  const flow = opened.at(-1)
  if (!flow) throw new Error('no window opened')
  return flow
}

function expectNoKey(): void {
  const key = core.sandbox.apiKey
  const seen = JSON.stringify({ logs, answers, outcomes, titles: opened.map((f) => f.title) })
  expect(seen).not.toContain(key)
  expect(seen).not.toContain(encodeURIComponent(key))
  expect(seen).not.toContain('/partner/')
}

describe('wallet flows', () => {
  it('completes a pre-sync in the window and records it; the key appears nowhere', async () => {
    const flow = await startFlow({ flow: 'pre-sync', refUserId: 'member-7' })
    expect(flow.partition).toMatch(/^wallet-[0-9a-f-]{36}$/)
    expect(flow.url).toContain(core.sandbox.apiKey)
    const cookies: string[] = []
    const page = await load(flow, flow.url, cookies)
    expect(page).toContain('member-7')
    await click(flow, page, '완료', cookies)
    expect(outcomes).toHaveLength(1)
    expect(outcomes[0]).toMatchObject({
      outcome: 'completed',
      flow: 'pre-sync',
      refUserId: 'member-7',
      params: { result: 'success', flow: 'pre-sync', refUserId: 'member-7' },
    })
    await expect(flow.ended).resolves.toMatchObject({ outcome: 'completed' })
    const history = await ipc<WalletHistoryPage>('wallet.history', {})
    expect(history.ok && history.value.rows[0]).toMatchObject({
      flow: 'pre-sync',
      refUserId: 'member-7',
      outcome: 'completed',
    })
    expect(history.ok && history.value.running).toBeNull()
    expectNoKey()
  })

  it('completes a sync with a pasted token; refuses one without a token', async () => {
    const idx = 3
    const refused = await ipc('wallet.start', { flow: 'sync', refUserId: 'm', guaranteeIdx: idx })
    // The reason and the guarantee go to the renderer, which words them in the window's language.
    expect(refused).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument', reason: 'no_guarantee_token', values: { idx } },
    })
    expect(!refused.ok && refused.error.message).toMatch(/paste the token/)
    const guarantee = core.sandbox.dataset.guarantee(idx - 1)
    const member = guarantee.refUserId ?? 'member-1'
    const flow = await startFlow({
      flow: 'sync',
      refUserId: member,
      guaranteeIdx: idx,
      token: core.sandbox.tokenFor(idx),
    })
    const cookies: string[] = []
    const page = await load(flow, flow.url, cookies)
    await click(flow, page, '완료', cookies)
    expect(outcomes[0]).toMatchObject({
      outcome: 'completed',
      guaranteeIdx: idx,
      params: { guaranteeIdx: String(idx) },
    })
    expectNoKey()
  })

  it('asks the login page first for a login- member, then completes', async () => {
    const flow = await startFlow({ flow: 'pre-sync', refUserId: 'login-42' })
    const cookies: string[] = []
    const form = await load(flow, flow.url, cookies)
    expect(form).toContain('name="password"')
    const action = /action="([^"]+)"/.exec(form)?.[1] ?? ''
    const fields = [...form.matchAll(/type="hidden" name="([^"]+)" value="([^"]*)"/g)].map(
      ([, name, value]) => [name ?? '', (value ?? '').replace(/&#38;/g, '&')] as [string, string],
    )
    const submit = new URL(action, core.sandbox.baseUrl)
    const pairs: [string, string][] = [...fields, ['user', 'demo'], ['password', 'demo']]
    for (const [name, value] of pairs) {
      submit.searchParams.set(name, value)
    }
    expect(flow.feed({ type: 'navigate', url: submit.toString(), via: 'navigate' }).action).toBe(
      'allow',
    )
    const page = await load(flow, submit.toString(), cookies)
    await click(flow, page, '완료', cookies)
    expect(outcomes[0]?.outcome).toBe('completed')
  })

  it('ends blocked with the foreign origin named, and failed on an HTTP error', async () => {
    const foreign = await startFlow({ flow: 'pre-sync', refUserId: 'foreign-1' })
    await load(foreign, foreign.url, [])
    expect(outcomes[0]).toMatchObject({
      outcome: 'blocked',
      reason: new URL(FOREIGN_WALLET_URL).origin,
    })
    const broken = await startFlow({ flow: 'pre-sync', refUserId: 'error-1' })
    await load(broken, broken.url, [])
    expect(outcomes[1]).toMatchObject({ outcome: 'failed', reason: 'http-503' })
    const history = await ipc<WalletHistoryPage>('wallet.history', { outcome: 'blocked' })
    expect(history.ok && history.value.rows.map((row) => row.detail)).toEqual([
      'https://wallet-partner.invalid',
    ])
    expectNoKey()
  })

  it('runs one flow at a time; cancel ends it cancelled; closing after the end changes nothing', async () => {
    const flow = await startFlow({ flow: 'pre-sync', refUserId: 'never-1' })
    const second = await ipc('wallet.start', { flow: 'pre-sync', refUserId: 'other' })
    expect(second).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    const running = await ipc<WalletHistoryPage>('wallet.history', {})
    expect(running.ok && running.value.running?.flowId).toBe(flow.id)
    await ipc('wallet.cancel', { flowId: flow.id })
    expect(outcomes).toEqual([expect.objectContaining({ outcome: 'cancelled', reason: 'staff' })])
    flow.feed({ type: 'closed' })
    expect(outcomes).toHaveLength(1)
    const again = await ipc('wallet.cancel', { flowId: flow.id })
    expect(again).toEqual({ ok: true, value: { cancelled: false } })
  })

  it('times out after the configured time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const flow = await startFlow({ flow: 'pre-sync', refUserId: 'never-2' })
    await vi.advanceTimersByTimeAsync(10 * 60 * 1000 - 1)
    expect(outcomes).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes[0]).toMatchObject({ flowId: flow.id, outcome: 'timed_out' })
  })

  it('asks for a confirmation on a production profile', async () => {
    const saved = await call(core, 'profiles.save', {
      name: 'Shop',
      baseUrl: core.sandbox.baseUrl,
      staticUrl: core.sandbox.staticUrl,
      partnerId: core.sandbox.partnerId,
      redirectUri: 'https://shop.example.com/wallet/done',
    })
    await call(core, 'profiles.setSecret', {
      id: saved.id,
      apiKey: core.sandbox.apiKey,
      apiSecret: core.sandbox.apiSecret,
      sessionOnly: true,
    })
    await call(core, 'profiles.select', { id: saved.id })
    const unconfirmed = await ipc('wallet.start', { flow: 'pre-sync', refUserId: 'm1' })
    expect(unconfirmed).toMatchObject({ ok: false, error: { code: 'invalid_argument' } })
    expect(opened).toHaveLength(0)
    const flow = await startFlow({ flow: 'pre-sync', refUserId: 'm1', confirmed: true })
    const page = await load(flow, flow.url, [])
    // The shop's own redirectUri completes the flow without being loaded.
    await click(flow, page, '완료', [])
    expect(outcomes[0]).toMatchObject({ outcome: 'completed', params: { result: 'success' } })
    expectNoKey()
  })

  it('exports the history as CSV with a BOM and CRLF (a download without a save dialog)', async () => {
    const flow = await startFlow({ flow: 'pre-sync', refUserId: '=HYPERLINK("x")' })
    flow.feed({ type: 'closed' })
    const answer = await ipc<WalletExportResult>('wallet.export', {
      lang: 'en',
      format: 'csv',
    })
    expect(answer.ok).toBe(true)
    if (!answer.ok) return
    expect(answer.value).toMatchObject({ kind: 'download', rows: 1 })
    const csv = answer.value.csv ?? ''
    expect(csv.startsWith('\uFEFFStarted,Ended,Flow,Member,Guarantee,Outcome,Detail\r\n')).toBe(
      true,
    )
    expect(csv).toContain(`Pre-sync,"'=HYPERLINK(""x"")",,Cancelled,closed\r\n`)
    // Start and end in the window's one way to write a time, never ISO or UTC.
    expect(csv.split('\r\n')[1]).toMatch(
      /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},/u,
    )
    expectNoKey()
  })
})

describe('wallet flows started at once', () => {
  it('opens only one of two starts that race', async () => {
    const answers = await Promise.all([
      core.router.dispatch('wallet.start', { flow: 'pre-sync', refUserId: 'a' }),
      core.router.dispatch('wallet.start', { flow: 'pre-sync', refUserId: 'b' }),
    ])
    expect(answers.filter((answer) => answer.ok)).toHaveLength(1)
    expect(opened).toHaveLength(1)
  })
})
