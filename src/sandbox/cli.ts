import { parseArgs } from 'node:util'
import { parseFaultSpec, type Fault } from './faults'
import { startSandbox } from './server'

/**
 * `npm run sandbox -- --port 4010 --seed 1 --size 1000 [--fault SPEC]… [--churn
 * [--churn-every-ms N]] [--test-endpoints]`: starts the sandbox alone, prints
 * one line `SANDBOX={json}` and serves until stopped. A fault spec is
 * `kind[@route][:key=value,…]`, e.g. `--fault html502@guarantee:count=2
 * --fault latency:ms=300,rate=0.2` (kinds and options: README "Sandbox", or
 * `src/sandbox/faults.ts`). `--churn` moves the data on every N ms (default
 * 5000) at the real time in the service's zone; `--test-endpoints` serves
 * `POST /__sandbox/advance` and `GET /__sandbox/changes`. `--anchor TIME` sets
 * the data's "now" (default: the moment it starts).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    'static-port': { type: 'string', default: '0' },
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: '2000' },
    fault: { type: 'string', multiple: true, default: [] },
    churn: { type: 'boolean', default: false },
    'churn-every-ms': { type: 'string' },
    'test-endpoints': { type: 'boolean', default: false },
    anchor: { type: 'string' },
  },
  strict: true,
})

function int(name: string, text: string, min: number, max: number): number {
  const value = Number(text)
  if (!Number.isInteger(value) || value < min || value > max) {
    console.error(
      `--${name} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`,
    )
    process.exit(2)
  }
  return value
}

let faults: Fault[]
try {
  faults = values.fault.map(parseFaultSpec)
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error))
  process.exit(2)
}

const anchor = values.anchor === undefined ? Date.now() : Date.parse(values.anchor)
if (!Number.isFinite(anchor)) {
  console.error(
    `--anchor must be a date and time such as 2026-11-25T10:00:00+09:00 (got ${JSON.stringify(values.anchor)})`,
  )
  process.exit(2)
}

const sandbox = await startSandbox({
  anchor,
  port: int('port', values.port, 0, 65535),
  staticPort: int('static-port', values['static-port'], 0, 65535),
  seed: int('seed', values.seed, 0, 2 ** 31 - 1),
  size: int('size', values.size, 0, 1_000_000),
  faults,
  ...(values.churn || values['churn-every-ms'] !== undefined
    ? {
        churn: {
          everyMs: int('churn-every-ms', values['churn-every-ms'] ?? '5000', 100, 86_400_000),
          clock: 'wall' as const,
        },
      }
    : {}),
  testEndpoints: values['test-endpoints'],
})
const { baseUrl, staticUrl, partnerId, apiKey, apiSecret } = sandbox
console.log(`SANDBOX=${JSON.stringify({ baseUrl, staticUrl, partnerId, apiKey, apiSecret })}`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void sandbox.close().then(() => process.exit(0))
  })
}
