import { execFile as execFileCallback, execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { chown, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { randomBytes } from 'node:crypto'
import type pg from 'pg'
import { addMember, grantPartner } from '../../src/core/team/admin'
import { connectClient, type TeamServerConfig } from '../../src/core/team/connection'

const execFile = promisify(execFileCallback)

/**
 * A throwaway PostgreSQL cluster for the team tests, from Debian's
 * `postgresql` package: `initdb` in a temporary folder, run as a non-root
 * user (the server refuses root; as root the folder goes to `postgres`), TLS
 * on with a CA made here, listening on 127.0.0.1 on a free port and on no unix
 * socket. Plain connections are rejected by pg_hba, so every test connects
 * the way a real server demands: TLS, verify-full against the CA file.
 */

/** What the tests get from the global setup (plain data, sent to the workers). */
export interface TeamClusterInfo {
  readonly host: string
  readonly port: number
  /** The superuser, its password and the database the migrations went into. */
  readonly adminUser: string
  readonly adminPassword: string
  readonly database: string
  /** The CA that signed the server's certificate (for 127.0.0.1 and localhost). */
  readonly caFile: string
  /** Another loopback address of the same server, absent from its certificate. */
  readonly unnamedHost: string
  /** The CA of a second, unrelated authority (to prove a wrong CA is refused). */
  readonly otherCaFile: string
}

declare module 'vitest' {
  /** What the global setup hands every team test file (`inject('teamCluster')`). */
  export interface ProvidedContext {
    teamCluster: TeamClusterInfo
  }
}

/** A running cluster; {@link TeamCluster.stop} stops it and removes its folder. */
export interface TeamCluster extends TeamClusterInfo {
  readonly dir: string
  stop(): Promise<void>
  /** Stops the server (`pg_ctl stop -m fast`: open sessions end), keeping its data, for an outage. */
  pause(): Promise<void>
  /** Starts the paused server again on the same port; resolves once it accepts connections. */
  resume(): Promise<void>
}

/** How a member connects to `cluster`: TLS verified against its CA, like a real server. */
export function clusterMember(
  cluster: TeamClusterInfo,
  user: string,
  password: string,
  database?: string,
): TeamServerConfig {
  return {
    host: cluster.host,
    port: cluster.port,
    database: database ?? cluster.database,
    user,
    password,
    tls: 'verify-full',
    caFile: cluster.caFile,
  }
}

/** A connection to `cluster` as its administrator. */
export function clusterAdmin(cluster: TeamClusterInfo, database?: string): Promise<pg.Client> {
  return connectClient(clusterMember(cluster, cluster.adminUser, cluster.adminPassword, database))
}

/**
 * Team `team` granted the partner account `partner`, with these members
 * (each with a random password); answers how each connects, in order.
 */
export async function addTeam(
  admin: pg.Client,
  cluster: TeamClusterInfo,
  options: {
    readonly team: string
    readonly partner: string
    readonly members: readonly { readonly role: string; readonly displayName: string }[]
    readonly database?: string | undefined
  },
): Promise<TeamServerConfig[]> {
  await grantPartner(admin, options.team, options.partner)
  const configs: TeamServerConfig[] = []
  for (const { role, displayName } of options.members) {
    const password = `pw-${randomBytes(8).toString('hex')}`
    await addMember(admin, { team: options.team, role, password, displayName })
    configs.push(clusterMember(cluster, role, password, options.database))
  }
  return configs
}

/** The newest Debian PostgreSQL's bin folder; throws with what to install when there is none. */
async function binDir(): Promise<string> {
  const root = '/usr/lib/postgresql'
  const versions = await readdir(root).catch(() => [] as string[])
  const newest = versions
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a))[0]
  if (!newest) {
    throw new Error(
      "The team tests need a PostgreSQL server: install Debian's `postgresql` package (.ci/run does).",
    )
  }
  return `${root}/${newest}/bin`
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** Runs a server binary as the cluster's owner (as `postgres` when we are root). */
async function asOwner(command: string, args: readonly string[]): Promise<string> {
  const root = process.getuid?.() === 0
  const [file, argv] = root
    ? ['runuser', ['-u', 'postgres', '--', command, ...args]]
    : [command, args]
  const { stdout } = await execFile(file, argv, { cwd: tmpdir() })
  return stdout
}

async function openssl(args: readonly string[], cwd: string): Promise<void> {
  await execFile('openssl', args, { cwd })
}

/** A CA and a server certificate it signed, for 127.0.0.1 and localhost (EC keys: fast to make). */
async function makeCertificates(dir: string): Promise<void> {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']
  await openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'ca.key',
      '-out',
      'ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=team test CA',
    ],
    dir,
  )
  await openssl(
    [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      'other-ca.key',
      '-out',
      'other-ca.crt',
      '-days',
      '2',
      '-subj',
      '/CN=other CA',
    ],
    dir,
  )
  await openssl(
    ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1'],
    dir,
  )
  await writeFile(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n')
  await openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'san.ext',
    ],
    dir,
  )
}

/**
 * Creates and starts a cluster and applies the migrations with the project's
 * own command (`npm run team -- migrate`), as an administrator would. The
 * vitest `team` project and the two-host Playwright test both start theirs here.
 */
export async function startMigratedTeamCluster(): Promise<TeamCluster> {
  const cluster = await startTeamCluster()
  try {
    // The password through PGPASSWORD: the command refuses one in the URL.
    const url = `postgres://${cluster.adminUser}@${cluster.host}:${cluster.port}/${cluster.database}`
    await execFile(
      'npm',
      ['run', '--silent', 'team', '--', 'migrate', '--url', url, '--ca', cluster.caFile],
      { env: { ...process.env, PGPASSWORD: cluster.adminPassword } },
    )
  } catch (error) {
    await cluster.stop()
    throw error
  }
  return cluster
}

/** Creates and starts a cluster. */
export async function startTeamCluster(): Promise<TeamCluster> {
  const bin = await binDir()
  const dir = await mkdtemp(join(tmpdir(), 'appraisal-team-'))
  const data = join(dir, 'data')
  const adminUser = 'team_admin'
  const adminPassword = `admin-${Math.random().toString(36).slice(2)}`
  await makeCertificates(dir)
  await writeFile(join(dir, 'pw'), `${adminPassword}\n`)
  if (process.getuid?.() === 0) {
    const { stdout } = await execFile('id', ['-u', 'postgres'])
    const { stdout: gid } = await execFile('id', ['-g', 'postgres'])
    const uid = Number(stdout.trim())
    for (const name of ['', 'pw', 'server.key', 'server.crt', 'ca.crt']) {
      await chown(join(dir, name), uid, Number(gid.trim()))
    }
  }
  await asOwner(`${bin}/initdb`, [
    '-D',
    data,
    '-U',
    adminUser,
    `--pwfile=${join(dir, 'pw')}`,
    '--auth-host=scram-sha-256',
    '--auth-local=reject',
    '-E',
    'UTF8',
    '--no-locale',
    '--no-sync',
  ])
  // Plain TCP is refused outright; TLS with a password for everyone else.
  await asOwner('/bin/sh', [
    '-c',
    `printf '%s\\n' 'hostnossl all all 127.0.0.0/8 reject' 'hostssl all all 127.0.0.0/8 scram-sha-256' > '${data}/pg_hba.conf'`,
  ])
  const port = await freePort()
  const options = [
    // 127.0.0.2 reaches the same server under a name its certificate does not carry.
    '-c listen_addresses=127.0.0.1,127.0.0.2',
    `-c port=${port}`,
    "-c unix_socket_directories=''",
    '-c ssl=on',
    `-c ssl_cert_file=${dir}/server.crt`,
    `-c ssl_key_file=${dir}/server.key`,
    '-c fsync=off',
    '-c max_connections=60',
  ].join(' ')
  const start = (): Promise<string> =>
    asOwner(`${bin}/pg_ctl`, [
      'start',
      '-D',
      data,
      '-w',
      '-t',
      '60',
      '-l',
      `${dir}/server.log`,
      '-o',
      options,
    ])
  await start()
  const pgCtlStop = ['stop', '-D', data, '-m', 'immediate', '-w']
  // If the test process exits without running the teardown (an uncaught
  // error, process.exit), the server still goes: 'exit' handlers run synchronously.
  const stopOnExit = (): void => {
    try {
      const root = process.getuid?.() === 0
      execFileSync(
        root ? 'runuser' : `${bin}/pg_ctl`,
        root ? ['-u', 'postgres', '--', `${bin}/pg_ctl`, ...pgCtlStop] : pgCtlStop,
        { stdio: 'ignore' },
      )
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true })
  }
  process.once('exit', stopOnExit)
  const stop = async (): Promise<void> => {
    process.off('exit', stopOnExit)
    await asOwner(`${bin}/pg_ctl`, pgCtlStop).catch(() => {})
    await rm(dir, { recursive: true, force: true })
  }
  return {
    dir,
    host: '127.0.0.1',
    port,
    unnamedHost: '127.0.0.2',
    adminUser,
    adminPassword,
    database: 'postgres',
    caFile: join(dir, 'ca.crt'),
    otherCaFile: join(dir, 'other-ca.crt'),
    stop,
    pause: async () => {
      await asOwner(`${bin}/pg_ctl`, ['stop', '-D', data, '-m', 'fast', '-w'])
    },
    resume: async () => {
      await start()
    },
  }
}
