import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it, vi } from 'vitest'
import TeamServerForm from '../../src/renderer/src/views/accounts/TeamServerForm.svelte'
import type { Client } from '../../src/renderer/src/lib/client'
import type { ProfileView } from '../../src/shared/profiles'
import { renderInApp } from './harness'

/**
 * The team server form of an Accounts card: what it refuses before anything
 * is sent, and that the password goes only to `team.setPassword` (the
 * keychain), never into the profile `profiles.save` stores. A small fake
 * client stands in for the core: the calls it receives are what is checked.
 */

const profile: ProfileView = {
  id: 'p-1',
  name: '매장',
  kind: 'production',
  baseUrl: 'https://partner.example.com',
  partnerId: 'shop-1',
  timeZone: 'Asia/Seoul',
  staticUrl: 'https://images.example.com',
  redirectUri: 'https://shop.example.com/done',
  timeoutSeconds: 30,
  credentials: { state: 'keychain', keyLast4: 'abcd' },
}

function fakeClient() {
  const attempt = vi.fn(async (channel: string, args: unknown) => ({
    ok: true as const,
    value: channel === 'profiles.save' ? { ...profile, ...(args as object) } : { state: 'none' },
  }))
  const client = { attempt, call: vi.fn(), on: vi.fn(() => () => {}), api: {} }
  return { client: client as unknown as Client, attempt }
}

function renderForm(team: ProfileView['team'] = null) {
  const { client, attempt } = fakeClient()
  const onsaved = vi.fn()
  const input = {
    id: profile.id,
    name: profile.name,
    baseUrl: profile.baseUrl,
    staticUrl: profile.staticUrl,
    partnerId: profile.partnerId,
    redirectUri: profile.redirectUri,
    timeZone: profile.timeZone,
    timeoutSeconds: 30,
    kind: 'production' as const,
  }
  renderInApp(
    TeamServerForm,
    { profile: { ...profile, team }, input, onsaved, oncancel: vi.fn() },
    'ko',
    client,
  )
  return { attempt, onsaved }
}

async function fill(name: string, value: string): Promise<void> {
  await fireEvent.input(document.querySelector(`[name=${name}]`)!, { target: { value } })
}

/** Saves; a refused form refuses before its first await, so nothing is sent after this. */
async function submit(): Promise<void> {
  await fireEvent.click(screen.getByTestId('team-save'))
}

describe('team server form', () => {
  it('sends the server to the profile and the password only to the keychain, then empties the field', async () => {
    const { attempt, onsaved } = renderForm()
    await fill('teamHost', 'db.shop.example')
    await fill('teamDatabase', 'appraisal')
    await fill('teamRole', 'minji')
    await fill('teamPassword', 'secret-pw-1')
    await submit()
    await waitFor(() => expect(onsaved).toHaveBeenCalledOnce())
    expect((document.querySelector('[name=teamPassword]') as HTMLInputElement).value).toBe('')
    expect(attempt.mock.calls.map(([channel]) => channel)).toEqual([
      'profiles.save',
      'team.setPassword',
    ])
    const saved = attempt.mock.calls[0]![1] as { team: unknown }
    expect(saved.team).toEqual({
      host: 'db.shop.example',
      port: 5432,
      database: 'appraisal',
      role: 'minji',
      tls: 'verify-full',
    })
    expect(JSON.stringify(saved)).not.toContain('secret-pw-1')
    expect(attempt.mock.calls[1]![1]).toEqual({ id: 'p-1', password: 'secret-pw-1' })
  })

  it('refuses a plain connection to another computer and a new server without a password', async () => {
    const { attempt } = renderForm()
    await fill('teamHost', 'db.shop.example')
    await fill('teamDatabase', 'appraisal')
    await fill('teamRole', 'minji')
    await fireEvent.change(screen.getByTestId('team-tls'), { target: { value: 'plain' } })
    await submit()
    const errors = screen.getAllByTestId('field-error').map((node) => node.textContent)
    expect(errors).toContain(
      '암호화 없는 연결은 이 컴퓨터(127.0.0.1, localhost)의 서버에만 쓸 수 있습니다.',
    )
    expect(errors.length).toBe(2)
    expect(attempt).not.toHaveBeenCalled()
  })

  it('editing with the password left empty keeps the stored one', async () => {
    const team = { host: '127.0.0.1', port: 5433, database: 'appraisal', role: 'minji' }
    const first = renderForm(team)
    await submit()
    await waitFor(() => expect(first.onsaved).toHaveBeenCalledOnce())
    expect(first.attempt.mock.calls.map(([channel]) => channel)).toEqual(['profiles.save'])
    expect((first.attempt.mock.calls[0]![1] as { team: unknown }).team).toEqual({
      ...team,
      tls: 'plain',
    })
  })

  it.each([
    ['teamPort', '5434'],
    ['teamDatabase', 'appraisal2'],
    ['teamCaFile', '/etc/shop/ca.pem'],
  ])('another %s needs the password again (core deletes the stored one)', async (field, value) => {
    const { attempt } = renderForm({
      host: '127.0.0.1',
      port: 5433,
      database: 'appraisal',
      role: 'minji',
    })
    await fill(field, value)
    await submit()
    expect(screen.getAllByTestId('field-error').map((node) => node.textContent)).toEqual([
      '입력하세요.',
    ])
    expect(attempt).not.toHaveBeenCalled()
  })

  it('a new login role needs its password', async () => {
    const { attempt } = renderForm({
      host: '127.0.0.1',
      port: 5433,
      database: 'appraisal',
      role: 'minji',
    })
    await fill('teamRole', 'jisoo')
    await submit()
    expect(screen.getAllByTestId('field-error').map((node) => node.textContent)).toEqual([
      '입력하세요.',
    ])
    expect(attempt).not.toHaveBeenCalled()
  })
})
