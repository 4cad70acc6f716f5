import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { secondShop } from '../../support/second-shop'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { bootForTest, call } from '../helpers/core'

/**
 * A team server saved where no keychain can keep its password (docs/team.md
 * "In the app"): the server is saved, the password can be kept for this
 * session only, and "Test team connection" says that nothing answers at the
 * address rather than blaming the password.
 */

const second = secondShop(20)
const servers: Server[] = []
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve))
})

/** keytar's own failure without a D-Bus session, on every write. */
function noKeychain(): MemoryStore {
  const absent = new MemoryStore()
  absent.set = () => Promise.reject(new Error('Cannot autolaunch D-Bus without X11 $DISPLAY'))
  return absent
}

async function boot(): Promise<BootedCore> {
  return second.keep(
    await bootForTest({ keychain: noKeychain(), keychainService: 'team-no-keychain' }),
  )
}

/** A port something listens on (`open`), or one nothing listens on. */
async function port(open: boolean): Promise<number> {
  const server = createServer((socket) => socket.on('error', () => {}))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port: number } = server.address() as { port: number }
  if (open) servers.push(server)
  else await new Promise((resolve) => server.close(resolve))
  return number
}

function withTeam(core: BootedCore, teamPort: number): Promise<string> {
  return second.save(core, {
    team: { host: '127.0.0.1', port: teamPort, database: 'team', role: 'minji', tls: 'plain' },
  })
}

describe('the team server without a keychain', () => {
  it('is saved; the password is refused by the keychain, then kept for this session only', async () => {
    const core = await boot()
    const closed = await port(false)
    const id = await withTeam(core, closed)
    const refused = await core.router.dispatch('team.setPassword', { id, password: 'team-pw' })
    expect(!refused.ok && refused.error.code).toBe('keychain_unavailable')
    // The server itself stays saved.
    const { profiles } = await call(core, 'profiles.list')
    expect(profiles.find((profile) => profile.id === id)?.team).toMatchObject({ port: closed })

    // No password: nothing answers at the address, said as such.
    const first = await core.router.dispatch('team.test', { id })
    expect(!first.ok && first.error).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_no_answer',
      values: { address: `127.0.0.1:${closed}` },
    })

    await call(core, 'team.setPassword', { id, password: 'team-pw', sessionOnly: true })
    // With the session's password the connection is tried, and meets the same closed port.
    const again = await core.router.dispatch('team.test', { id })
    expect(!again.ok && again.error).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_no_answer',
      values: { address: `127.0.0.1:${closed}` },
    })
  })

  it('says no password is stored when a server answers but there is nothing to log in with', async () => {
    const core = await boot()
    const id = await withTeam(core, await port(true))
    const answer = await core.router.dispatch('team.test', { id })
    expect(!answer.ok && answer.error).toMatchObject({
      code: 'team_auth',
      reason: 'team_no_password',
    })
  })

  it('refuses a bad sessionOnly flag, storing nothing', async () => {
    const core = await boot()
    const id = await withTeam(core, await port(false))
    const answer = await core.router.dispatch('team.setPassword', {
      id,
      password: 'team-pw',
      sessionOnly: 'yes',
    })
    expect(!answer.ok && answer.error.code).toBe('invalid_argument')
    const test = await core.router.dispatch('team.test', { id })
    expect(!test.ok && test.error.reason).toBe('team_no_answer')
  })
})
