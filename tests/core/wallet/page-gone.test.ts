import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { PAGE_GONE_GRACE_MS } from '../../../src/core/wallet/wallet-service'
import type { Result } from '../../../src/shared/errors'
import type { WalletHistoryPage, WalletOutcome, WalletStarted } from '../../../src/shared/wallet'
import { bootForTest } from '../helpers/core'

/**
 * Web host (docs/wallet.md): a popup flow whose app pages are all gone (the
 * tab was closed) ends as closed once none came back within the grace time,
 * not at its ten-minute timeout; a reload within it keeps the flow. Fake time.
 */

let core: BootedCore
let outcomes: WalletOutcome[]

beforeEach(async () => {
  core = await bootForTest({ keychain: new MemoryStore(), keychainService: 'wallet-page-gone' })
  outcomes = []
  core.events.subscribe((event, payload) => {
    if (event === 'wallet.outcome') outcomes.push(payload as WalletOutcome)
  })
})

afterEach(async () => {
  vi.useRealTimers()
  await core.close()
})

async function startPopupFlow(member: string): Promise<WalletStarted> {
  const answer = (await core.router.dispatch('wallet.start', {
    flow: 'pre-sync',
    refUserId: member,
  })) as Result<WalletStarted>
  if (!answer.ok) throw new Error(answer.error.message)
  expect(answer.value.opener).toBe('popup')
  return answer.value
}

describe('a popup flow when the app’s page is gone', () => {
  it('ends as closed once no page came back within the grace time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    core.wallet.pagesChanged(1)
    const flow = await startPopupFlow('page-gone-1')
    core.wallet.pagesChanged(0)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS - 1)
    expect(outcomes).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(outcomes).toEqual([
      expect.objectContaining({ flowId: flow.flowId, outcome: 'cancelled', reason: 'closed' }),
    ])
    const history = (await core.router.dispatch('wallet.history', {})) as Result<WalletHistoryPage>
    expect(history.ok && history.value.running).toBeNull()
    expect(history.ok && history.value.rows[0]).toMatchObject({ outcome: 'cancelled' })
    // A later page count changes nothing: the flow has ended once.
    core.wallet.pagesChanged(0)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS)
    expect(outcomes).toHaveLength(1)
  })

  it('keeps the flow when a page comes back in time (a reload), or another tab stays open', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    core.wallet.pagesChanged(2)
    const flow = await startPopupFlow('page-gone-2')
    core.wallet.pagesChanged(1)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS * 2)
    core.wallet.pagesChanged(0)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS - 1)
    core.wallet.pagesChanged(1)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS * 2)
    expect(outcomes).toHaveLength(0)
    expect(core.wallet.running()?.flowId).toBe(flow.flowId)
  })

  it('leaves a flow in the app’s own window alone (Electron counts no pages)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    core.wallet.useWindowHost({ open: () => undefined })
    const answer = (await core.router.dispatch('wallet.start', {
      flow: 'pre-sync',
      refUserId: 'page-gone-3',
    })) as Result<WalletStarted>
    expect(answer.ok && answer.value.opener).toBe('window')
    core.wallet.pagesChanged(0)
    await vi.advanceTimersByTimeAsync(PAGE_GONE_GRACE_MS * 2)
    expect(outcomes).toHaveLength(0)
  })
})
