/**
 * Command-line switches that open the app to another local process or
 * weaken its checks: a debugger or DevTools protocol port (which could read
 * the wallet window's address or drive `window.api`), V8 flags, and
 * Chromium's switches that turn certificate, site-isolation or sandbox
 * checks off. The fuses cover Node's own `--inspect` and `NODE_OPTIONS`
 * (electron-builder.yml); nothing covers Chromium's, so a packaged app
 * refuses to start with any of these (`src/main/index.ts`,
 * docs/security.md "Debugging switches").
 */
const REFUSED = new Set([
  'remote-debugging-port',
  'remote-debugging-pipe',
  'remote-debugging-address',
  'remote-debugging-io-pipes',
  'remote-allow-origins',
  'auto-open-devtools-for-tabs',
  'inspect',
  'inspect-brk',
  'inspect-brk-node',
  'inspect-port',
  'inspect-wait',
  'inspect-publish-uid',
  'debug',
  'debug-brk',
  'debug-port',
  'js-flags',
  'ignore-certificate-errors',
  'ignore-certificate-errors-spki-list',
  'ignore-urlfetcher-cert-requests',
  'allow-insecure-localhost',
  'disable-web-security',
  'disable-site-isolation-trials',
])

/**
 * The refused switches among `argv` (the process's arguments after the
 * executable), by name without dashes or value, in order, each once.
 * Switches are read the way Chromium reads them: `--name`, `-name` and, on
 * Windows, `/name`, with or without `=value`, case-insensitive on Windows;
 * a lone `--` ends the switches.
 * @internal
 */
export function debuggingSwitches(
  argv: readonly string[],
  platform: NodeJS.Platform = process.platform,
): string[] {
  const found: string[] = []
  for (const arg of argv) {
    if (arg === '--') break
    const prefix =
      /^(--|-)/.exec(arg)?.[0] ?? (platform === 'win32' && arg.startsWith('/') ? '/' : '')
    if (!prefix) continue
    let name = arg.slice(prefix.length).split('=', 1)[0] ?? ''
    if (platform === 'win32') name = name.toLowerCase()
    if (REFUSED.has(name) && !found.includes(name)) found.push(name)
  }
  return found
}

/**
 * What a starting app does about its arguments: a packaged app refuses any
 * switch of {@link debuggingSwitches} and answers the log line to write
 * before it exits; a development run (`npm run dev`) is allowed them.
 */
export function refusedAtStart(options: {
  readonly packaged: boolean
  readonly argv: readonly string[]
  readonly platform?: NodeJS.Platform
}): string | null {
  if (!options.packaged) return null
  const found = debuggingSwitches(options.argv, options.platform)
  if (found.length === 0) return null
  return `[security] refusing to start: debugging or checking switches on the command line (${found.map((name) => `--${name}`).join(', ')}); start the app without them`
}
