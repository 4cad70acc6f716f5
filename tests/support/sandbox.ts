import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox'

/** Starts a sandbox on a free loopback port for one test file; stop it in `afterAll`. */
export async function useSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ seed: 1, size: 200, ...options })
}
