import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { browserCommand, chooseStartMode, fallbackLine } from './start-mode'

/**
 * `npm start`: builds, then opens the app in Electron's window where its
 * binary exists; otherwise says why in one line and serves the same app
 * through the web host on the embedded sandbox, printing its address and
 * opening it in the default browser where there is one, with a one-time
 * code instead of the session token.
 */
const root = resolve(import.meta.dirname, '..')
const require = createRequire(import.meta.url)
const mode = chooseStartMode({
  resolveElectronPackage: () => require.resolve('electron/package.json'),
  exists: existsSync,
  readText: (path) => {
    try {
      return readFileSync(path, 'utf8')
    } catch {
      return null
    }
  },
  env: process.env,
})

const bin = (name: string) =>
  resolve(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name)

/** Runs a command to its end in the foreground; exits with its status when it fails. */
function run(command: string, args: readonly string[]): void {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

if (mode.kind === 'electron') {
  // electron-vite builds, then starts Electron on the built app.
  run(bin('electron-vite'), ['preview'])
} else {
  console.log(fallbackLine(mode.reason))
  run(bin('electron-vite'), ['build', '--logLevel', 'warn'])
  const host = spawn(bin('tsx'), ['src/web-host/cli.ts', ...process.argv.slice(2)], {
    cwd: root,
    stdio: ['inherit', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => host.kill(signal))
  }
  host.on('exit', (code) => process.exit(code ?? 0))
  // The host prints the address with its session token (for this terminal only) and one with a
  // one-time code: the browser is opened with the code, so the token is never on its command line.
  createInterface({ input: host.stdout }).on('line', (line) => {
    const url = /^WEB_HOST_URL=(\S+)$/.exec(line)?.[1]
    const open = /^WEB_HOST_OPEN=(\S+)$/.exec(line)?.[1]
    if (url) {
      console.log(`Appraisal Desk: ${url}`)
      return
    }
    if (!open) {
      console.log(line)
      return
    }
    const command = browserCommand(open, process.platform, process.env)
    if (!command) return
    // No browser, or it fails: the address above is enough.
    const [program, ...args] = command
    const opener = spawn(program, args, { stdio: 'ignore', detached: true })
    opener.on('error', () => undefined)
    opener.unref()
  })
}
