import { readFile } from 'node:fs/promises'
import { connect as connectSocket, isIP } from 'node:net'
import { getCACertificates } from 'node:tls'
import pg from 'pg'
import { DEFAULT_CONNECT_TIMEOUT_MS, TeamError, toTeamError, type TeamAddress } from './team-error'
import { isLoopbackHost, teamTlsMode } from './tls-mode'

/**
 * Opening a connection to the team's PostgreSQL with the project's TLS rule:
 * TLS with `verify-full` semantics (the chain checked against the system's
 * CAs or the CA file the profile names, and the host name checked against the
 * certificate) for every host but loopback, where a plain connection is
 * allowed. Built with `pg`'s own `ssl` object rather than an `sslmode` in a
 * URL, whose meaning has changed between `pg` versions (docs/team.md).
 */

/** Where and as whom to connect. The password comes from the keychain, never settings. */
export interface TeamServerConfig {
  readonly host: string
  readonly port: number
  readonly database: string
  /** The staff member's own login role. */
  readonly user: string
  readonly password: string
  /**
   * `verify-full`: TLS, certificate and host name checked (the default and the
   * only choice off loopback); `plain`: no TLS, refused unless the host is loopback.
   */
  readonly tls?: 'verify-full' | 'plain' | undefined
  /** A PEM file of the CA(s) to trust instead of the system's. */
  readonly caFile?: string | undefined
  /** Milliseconds to wait for the connection; default 10 s. */
  readonly connectTimeoutMs?: number | undefined
}

/** The `ssl` option of `pg` for a config, after applying the loopback rule. */
async function tlsOptions(config: TeamServerConfig): Promise<pg.ClientConfig['ssl']> {
  const mode = teamTlsMode(config)
  if (mode === 'plain') {
    if (!isLoopbackHost(config.host)) {
      throw new TeamError(
        'team_tls_required',
        `A plain connection to ${config.host} is refused: TLS is required for a server that is not on this machine.`,
      )
    }
    return false
  }
  let ca: string[]
  if (config.caFile) {
    try {
      ca = [await readFile(config.caFile, 'utf8')]
    } catch (error) {
      throw new TeamError('team_tls', `The CA file cannot be read: ${config.caFile}`, {
        cause: error,
      })
    }
  } else {
    // Node's own bundle plus the operating system's store, as a browser would trust.
    ca = [...getCACertificates('default'), ...getCACertificates('system')]
  }
  return {
    ca,
    rejectUnauthorized: true,
    // Server Name Indication needs a name; Node checks an IP host against the IP SANs.
    ...(isIP(config.host) === 0 ? { servername: config.host } : {}),
  }
}

/**
 * Connects one `pg` client. A failure is a {@link TeamError}; an error the
 * socket emits later (the server went away) goes to `onLost`, never unhandled.
 */
export async function connectClient(
  config: TeamServerConfig,
  onLost: (error: TeamError) => void = () => {},
): Promise<pg.Client> {
  const client = new pg.Client({
    host: config.host,
    port: config.port,
    database: config.database,
    user: config.user,
    password: config.password,
    ssl: await tlsOptions(config),
    connectionTimeoutMillis: config.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'appraisal-desk',
  })
  let connected = false
  client.on('error', (error) => {
    if (connected) onLost(toTeamError(error))
  })
  client.on('end', () => {
    if (connected)
      onLost(new TeamError('team_unreachable', 'The team server closed the connection.'))
  })
  try {
    await client.connect()
  } catch (error) {
    await client.end().catch(() => {})
    // Named by its address: nothing answering there is never taken for a refused password.
    throw toTeamError(error, config)
  }
  connected = true
  return client
}

/**
 * Whether anything answers at the team server's host and port, without
 * logging in (no password is stored to log in with): resolves once a TCP
 * connection opens (and closes it), and fails with the {@link TeamError} of
 * why it could not (nothing listens there, no answer in time, an unknown host).
 */
export function probeTeamServer(where: TeamAddress): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket({ host: where.host, port: where.port })
    socket.setTimeout(where.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, () => {
      socket.destroy()
      reject(toTeamError(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' }), where))
    })
    socket.once('connect', () => {
      socket.destroy()
      resolve()
    })
    socket.once('error', (error) => {
      socket.destroy()
      reject(toTeamError(error, where))
    })
  })
}

/**
 * Reads `postgres://user:password@host:port/db?sslrootcert=FILE&sslmode=…`
 * into a config (the administrator's command takes a URL). `sslmode=disable`
 * asks for a plain connection, which the loopback rule may still refuse.
 */
export function configFromUrl(url: string, caFile?: string): TeamServerConfig {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new TeamError('team_server', 'The server address is not a postgres:// URL.')
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new TeamError('team_server', 'The server address is not a postgres:// URL.')
  }
  const sslmode = parsed.searchParams.get('sslmode')
  const rootCert = caFile ?? parsed.searchParams.get('sslrootcert') ?? undefined
  return {
    host: decodeURIComponent(parsed.hostname).replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parsed.port ? Number(parsed.port) : 5432,
    database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres',
    user: decodeURIComponent(parsed.username),
    password: decodeURIComponent(parsed.password),
    tls: sslmode === 'disable' ? 'plain' : sslmode !== null || rootCert ? 'verify-full' : undefined,
    caFile: rootCert,
  }
}
