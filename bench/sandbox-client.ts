import { PartnerClient } from '../src/core/api/client'

/** How the bench reaches its sandbox child (what `src/sandbox/cli.ts` prints at start). */
export interface SandboxAccess {
  readonly baseUrl: string
  readonly partnerId: string
  readonly apiKey: string
  readonly apiSecret: string
}

/** A partner client of the bench's sandbox, with the app's defaults. */
export function clientOf(sandbox: SandboxAccess): PartnerClient {
  return new PartnerClient({
    fetch: globalThis.fetch,
    target: { baseUrl: sandbox.baseUrl, partnerId: sandbox.partnerId },
    credentials: async () => ({ apiKey: sandbox.apiKey, apiSecret: sandbox.apiSecret }),
  })
}
