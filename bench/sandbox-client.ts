import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { PartnerClient } from '../src/core/api/client'

/** How the bench reaches its sandbox child (what `src/sandbox/cli.ts` prints at start). */
export interface SandboxAccess {
  readonly baseUrl: string
  readonly partnerId: string
  readonly apiKey: string
  readonly apiSecret: string
}

/** A sandbox the bench runs in a child process (so its CPU is not the measured one's). */
export interface SandboxChild extends SandboxAccess {
  readonly child: ChildProcess
  readonly staticUrl: string
}

const ROOT = resolve(import.meta.dirname, '..')

/**
 * Starts `src/sandbox/cli.ts` with `size` records a list (seed 1), the given
 * faults and, with `testEndpoints`, the churn endpoints; answers once it
 * printed its address.
 */
export async function startSandboxChild(
  size: number,
  options: { readonly faults?: readonly string[]; readonly testEndpoints?: boolean } = {},
): Promise<SandboxChild> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      join(ROOT, 'src/sandbox/cli.ts'),
      '--size',
      String(size),
      '--seed',
      '1',
      ...(options.faults ?? []).flatMap((fault) => ['--fault', fault]),
      ...(options.testEndpoints ? ['--test-endpoints'] : []),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'], cwd: ROOT },
  )
  const lines = createInterface({ input: child.stdout! })
  for await (const line of lines) {
    if (line.startsWith('SANDBOX=')) return { child, ...JSON.parse(line.slice('SANDBOX='.length)) }
  }
  throw new Error('The sandbox did not start.')
}

/** A partner client of the bench's sandbox, with the app's defaults. */
export function clientOf(sandbox: SandboxAccess): PartnerClient {
  return new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
    credentials: async () => ({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
  })
}
