import { createServer } from 'node:net'
import {
  demoCredentials,
  EMBEDDED_DATA,
  embeddedProfile,
  startSandbox,
  type EmbeddedProfile,
} from '../sandbox'

/** The two loopback ports the sandbox will listen on. */
export interface SandboxPorts {
  readonly port: number
  readonly staticPort: number
}

/** A started sandbox, as far as the shell is concerned. */
export interface RunningSandbox {
  close(): Promise<void>
}

/** How to set ports aside and start the sandbox on them (real ones by default; fakes in tests). */
export interface LazySandboxDeps {
  readonly reservePorts?: () => Promise<SandboxPorts>
  readonly start?: (ports: SandboxPorts) => Promise<RunningSandbox>
  /** The sandbox's "now" (epoch milliseconds) for the default start; the moment it starts when absent. */
  readonly anchor?: number
}

/**
 * The embedded sandbox of the packaged app, started only while the Sandbox
 * profile is in use. Core needs the built-in profile (its addresses and
 * credentials) when it is created, so two free loopback ports are set aside
 * at launch and the profile is described from them; the servers start on
 * those ports at the first request that goes to them ({@link ensure}), and
 * stop when another profile is chosen ({@link stop}). Should another program
 * take a port in between, the start fails and the request with it (the app
 * shows a network error), nothing worse.
 */
export class LazySandbox {
  readonly profile: EmbeddedProfile
  readonly #ports: SandboxPorts
  readonly #start: (ports: SandboxPorts) => Promise<RunningSandbox>
  #running: Promise<RunningSandbox> | null = null

  private constructor(
    ports: SandboxPorts,
    start: (ports: SandboxPorts) => Promise<RunningSandbox>,
  ) {
    this.#ports = ports
    this.#start = start
    this.profile = embeddedProfile({
      ...demoCredentials(EMBEDDED_DATA.seed),
      baseUrl: `http://127.0.0.1:${ports.port}`,
      staticUrl: `http://127.0.0.1:${ports.staticPort}`,
    })
  }

  /** Sets two ports aside and describes the profile; starts nothing. */
  static async create(deps: LazySandboxDeps = {}): Promise<LazySandbox> {
    const { port, staticPort } = await (deps.reservePorts ?? freeLoopbackPorts)()
    const start =
      deps.start ??
      ((ports: SandboxPorts) =>
        startSandbox({
          ...EMBEDDED_DATA,
          port: ports.port,
          staticPort: ports.staticPort,
          ...(deps.anchor === undefined ? {} : { anchor: deps.anchor }),
        }))
    return new LazySandbox({ port, staticPort }, start)
  }

  /** True when `url` goes to the sandbox (its API or its image host). */
  covers(url: string): boolean {
    let origin: string
    try {
      origin = new URL(url).origin
    } catch {
      return false
    }
    return (
      origin === new URL(this.profile.baseUrl).origin ||
      origin === new URL(this.profile.staticUrl).origin
    )
  }

  /** Whether the servers are running or starting. */
  get started(): boolean {
    return this.#running !== null
  }

  /** Starts the servers once; concurrent callers share the start. A failed start is retried next time. */
  ensure(): Promise<void> {
    if (!this.#running) {
      const running = this.#start(this.#ports)
      this.#running = running
      running.catch(() => {
        if (this.#running === running) this.#running = null
      })
    }
    return this.#running.then(() => undefined)
  }

  /** `fetch` that starts the sandbox first when the request goes to it. */
  wrapFetch(
    fetch: (input: string, init?: RequestInit) => Promise<Response>,
  ): (input: string, init?: RequestInit) => Promise<Response> {
    return (input, init) =>
      this.covers(input) ? this.ensure().then(() => fetch(input, init)) : fetch(input, init)
  }

  /** Stops the servers if they run (another profile was chosen, or the app quits). */
  async stop(): Promise<void> {
    const running = this.#running
    this.#running = null
    if (!running) return
    try {
      await (await running).close()
    } catch {
      // It never started: nothing to close.
    }
  }
}

/** Two ports free on 127.0.0.1 now: both listened on at once (so they differ), read, closed. */
async function freeLoopbackPorts(): Promise<SandboxPorts> {
  const servers = [createServer(), createServer()]
  const ports = await Promise.all(
    servers.map(
      (server) =>
        new Promise<number>((resolve, reject) => {
          server.once('error', reject)
          server.listen(0, '127.0.0.1', () => {
            const address = server.address()
            resolve(typeof address === 'object' && address ? address.port : 0)
          })
        }),
    ),
  )
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))))
  return { port: ports[0] ?? 0, staticPort: ports[1] ?? 0 }
}
