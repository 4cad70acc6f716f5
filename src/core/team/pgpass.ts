/**
 * The administrator's password from a PostgreSQL password file (`~/.pgpass`,
 * or the file `PGPASSFILE` names), as libpq reads it
 * (https://www.postgresql.org/docs/current/libpq-pgpass.html): lines
 * `host:port:database:user:password`, `*` matching anything, `\:` and `\\`
 * escaped, `#` comments; the first matching line wins. On Unix a file that
 * others may read or write is ignored, as libpq does.
 */
export function pgpassLookup(
  text: string,
  want: {
    readonly host: string
    readonly port: number
    readonly database: string
    readonly user: string
  },
): string | null {
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.startsWith('#')) continue
    const fields = splitFields(line)
    if (fields.length !== 5) continue
    const [host, port, database, user, password] = fields as [
      string,
      string,
      string,
      string,
      string,
    ]
    const matches = (field: string, value: string) => field === '*' || field === value
    const hostMatches =
      matches(host, want.host) || (host === 'localhost' && ['127.0.0.1', '::1'].includes(want.host))
    if (
      hostMatches &&
      matches(port, String(want.port)) &&
      matches(database, want.database) &&
      matches(user, want.user)
    ) {
      return password
    }
  }
  return null
}

/** Whether a password file's mode is safe to read it (libpq: no group or other access). */
export function pgpassModeOk(mode: number, platform: NodeJS.Platform = process.platform): boolean {
  return platform === 'win32' || (mode & 0o077) === 0
}

function splitFields(line: string): string[] {
  const fields: string[] = []
  let current = ''
  for (let i = 0; i < line.length; i += 1) {
    const char = line[i]!
    if (char === '\\' && i + 1 < line.length) {
      current += line[i + 1]
      i += 1
    } else if (char === ':' && fields.length < 4) {
      fields.push(current)
      current = ''
    } else {
      current += char
    }
  }
  fields.push(current)
  return fields
}
