import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox'
import { SANDBOX_ANCHOR } from './anchor'

/** Starts a sandbox on a free loopback port for one test file, its data ending on the tests' anchor; stop it in `afterAll`. */
export async function useSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ seed: 1, size: 200, anchor: SANDBOX_ANCHOR, ...options })
}
