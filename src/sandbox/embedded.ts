import { startSandbox, type Sandbox, type SandboxOptions } from './server'

/**
 * The built-in "Sandbox" profile as the hosts hand it to core: plain data,
 * the same shape as core's `BuiltinProfile`, so neither side imports the other.
 */
export interface EmbeddedProfile {
  readonly name: string
  readonly baseUrl: string
  readonly staticUrl: string
  readonly partnerId: string
  readonly redirectUri: string
  readonly credentials: { readonly apiKey: string; readonly apiSecret: string }
}

/** A started embedded sandbox and the profile that points at it. */
export interface EmbeddedSandbox {
  readonly sandbox: Sandbox
  readonly profile: EmbeddedProfile
}

/**
 * Starts the sandbox embedded in a host (Electron main, the web host, test
 * fixtures) on 127.0.0.1 and a free port, with the demo data set, and
 * describes it as the built-in profile. The host owns it and closes it after
 * core.
 */
export async function startEmbeddedSandbox(options: SandboxOptions = {}): Promise<EmbeddedSandbox> {
  const sandbox = await startSandbox({ ...EMBEDDED_DATA, ...options })
  return { sandbox, profile: embeddedProfile(sandbox) }
}

/** The embedded sandbox's data set: seed and size. */
export const EMBEDDED_DATA = { seed: 1, size: 3000 } as const

/**
 * The built-in profile of a sandbox at these addresses with these
 * credentials; the Electron shell describes it before starting it, from the
 * ports it set aside (`src/main/lazy-sandbox.ts`).
 */
export function embeddedProfile(
  sandbox: Pick<Sandbox, 'baseUrl' | 'staticUrl' | 'partnerId' | 'apiKey' | 'apiSecret'>,
): EmbeddedProfile {
  return {
    name: 'Sandbox',
    baseUrl: sandbox.baseUrl,
    staticUrl: sandbox.staticUrl,
    partnerId: sandbox.partnerId,
    // Wallet flows end here: intercepted in the app's window, never loaded (the web host
    // points the Sandbox's flows at its own return page instead).
    redirectUri: new URL('/wallet/done', sandbox.baseUrl).toString(),
    credentials: { apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret },
  }
}
