import { randomInt } from 'node:crypto'

/**
 * The fuzz tests' time budget and seed (docs/security.md "Fuzzing"):
 * `FUZZ_BUDGET_MS` (default 25 s, the unit suite's short run) and
 * `FUZZ_SEED` (default 42; `random` picks one, printed with the counts).
 */
export const FUZZ_BUDGET_MS = readNumber('FUZZ_BUDGET_MS', 25_000)

/** The seed every generator of the run starts from. */
export const FUZZ_SEED =
  process.env['FUZZ_SEED'] === 'random' ? randomInt(2 ** 31) : readNumber('FUZZ_SEED', 42)

function readNumber(name: string, fallback: number): number {
  const text = process.env[name]
  if (text === undefined || text === '') return fallback
  const value = Number(text)
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new Error(`${name} must be a whole number, not ${JSON.stringify(text)}`)
  }
  return value
}
