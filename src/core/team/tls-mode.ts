import { isIP } from 'node:net'

/** True for 127.0.0.0/8, ::1 and `localhost`: the only hosts a plain connection may reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase()
  if (bare === 'localhost') return true
  if (isIP(bare) === 4) return bare.startsWith('127.')
  if (isIP(bare) === 6) return bare === '::1' || bare === '0:0:0:0:0:0:0:1'
  return false
}

/** The TLS mode a team server is reached with: its own, else plain on loopback and `verify-full` elsewhere. */
export function teamTlsMode(team: {
  readonly host: string
  readonly tls?: 'verify-full' | 'plain' | undefined
}): 'verify-full' | 'plain' {
  return team.tls ?? (isLoopbackHost(team.host) ? 'plain' : 'verify-full')
}
