import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { probeTeamServer } from '../../../src/core/team/connection'
import { TeamError, toTeamError } from '../../../src/core/team/team-error'

/**
 * How a failure to reach the team server is told apart from a refused
 * password (docs/team.md "Error codes"): nothing listening at the address,
 * no answer in time and an unknown host name each carry a reason the
 * renderer words, with the address; the server's 28P01 stays a password
 * problem. The connections themselves are tested against a real cluster in
 * errors.test.ts.
 */

const WHERE = { host: 'team.shop.example', port: 5433 } as const

function socketError(code: string, message = `connect ${code}`): Error {
  return Object.assign(new Error(message), { code })
}

describe('toTeamError while connecting', () => {
  it('names nothing answering at the address (ECONNREFUSED), never the password', () => {
    const error = toTeamError(socketError('ECONNREFUSED'), WHERE)
    expect(error.toData()).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_no_answer',
      values: { address: 'team.shop.example:5433' },
    })
    expect(error.message).toContain('team.shop.example:5433')
    // An IPv6 host is written in brackets.
    expect(toTeamError(socketError('ECONNREFUSED'), { host: '::1', port: 5432 }).values).toEqual({
      address: '[::1]:5432',
    })
  })

  it('names a server that did not answer in time, with the seconds it was given', () => {
    for (const error of [
      socketError('ETIMEDOUT'),
      // pg's own words when connectionTimeoutMillis passes.
      new Error('Connection terminated due to connection timeout'),
    ]) {
      expect(toTeamError(error, { ...WHERE, connectTimeoutMs: 5000 }).toData()).toMatchObject({
        code: 'team_unreachable',
        reason: 'team_timeout',
        values: { address: 'team.shop.example:5433', seconds: 5 },
      })
    }
    expect(toTeamError(socketError('ETIMEDOUT'), WHERE).values).toMatchObject({ seconds: 10 })
  })

  it('names a host name that is not found (DNS)', () => {
    for (const code of ['ENOTFOUND', 'EAI_AGAIN']) {
      expect(toTeamError(socketError(code), WHERE).toData()).toMatchObject({
        code: 'team_unreachable',
        reason: 'team_host_unknown',
        values: { host: 'team.shop.example' },
      })
    }
  })

  it('keeps a refused password (28P01) a password problem, with no reason', () => {
    const refused = Object.assign(new Error('password authentication failed for user "minji"'), {
      code: '28P01',
    })
    const data = toTeamError(refused, WHERE).toData()
    expect(data).toMatchObject({ code: 'team_auth', sqlState: '28P01' })
    expect(data.reason).toBeUndefined()
  })

  it('gives no address when it does not know where (a lost connection)', () => {
    const data = toTeamError(socketError('ECONNREFUSED')).toData()
    expect(data.code).toBe('team_unreachable')
    expect(data.reason).toBeUndefined()
    expect(toTeamError(socketError('ECONNRESET'), WHERE).reason).toBeUndefined()
  })
})

describe('probeTeamServer (no password to log in with)', () => {
  let server: Server | null = null
  afterEach(async () => {
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(null)))
    server = null
  })

  async function listening(): Promise<number> {
    server = createServer((socket) => socket.on('error', () => {}))
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
    const address = server.address()
    if (address === null || typeof address === 'string') throw new Error('no port')
    return address.port
  }

  it('resolves when something listens, and names nothing answering when not', async () => {
    const port = await listening()
    await expect(probeTeamServer({ host: '127.0.0.1', port })).resolves.toBeUndefined()
    await new Promise((resolve) => server!.close(resolve))
    server = null
    const error = await probeTeamServer({ host: '127.0.0.1', port }).then(
      () => null,
      (caught: unknown) => caught,
    )
    expect(error).toBeInstanceOf(TeamError)
    expect((error as TeamError).toData()).toMatchObject({
      code: 'team_unreachable',
      reason: 'team_no_answer',
      values: { address: `127.0.0.1:${port}` },
    })
  })
})
