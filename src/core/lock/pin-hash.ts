import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/**
 * The PIN's slow salted hash (docs/security.md "The app lock"): scrypt from
 * `node:crypto` with N = 2^15, r = 8, p = 1 (32 MiB and roughly a tenth of a
 * second per try on a staff PC), a 16-byte random salt and a 32-byte key.
 * OWASP's password storage cheat sheet names N = 2^17 with r = 8 as its
 * first choice and lower N with more passes as equal; a PIN is also guarded
 * by the growing wait after wrong entries, enforced in core, and the hash
 * lives in the OS keychain, not on disk in the clear.
 * https://cheatsheetseries.owasp.org/cheatsheets/Password_Storage_Cheat_Sheet.html#scrypt
 * @internal
 */
export const PIN_SCRYPT = { N: 2 ** 15, r: 8, p: 1, keyBytes: 32, saltBytes: 16 } as const

/** The parameters a stored hash was made with. */
interface ScryptParams {
  readonly N: number
  readonly r: number
  readonly p: number
}

/**
 * Bounds on parameters read back from the keychain: an entry written by a
 * later version may be slower, but a damaged or planted one cannot make a
 * try take minutes or gigabytes.
 */
const MAX_N = 2 ** 20
const MAX_R = 16
const MAX_P = 4

/** The keychain entry of the lock: the hash, its parameters, and the wrong entries so far. */
export interface PinRecord {
  readonly v: 1
  readonly kdf: 'scrypt'
  readonly N: number
  readonly r: number
  readonly p: number
  /** base64 */
  readonly salt: string
  /** base64 */
  readonly hash: string
  /** Wrong entries since the last unlock; kept here so a restart does not reset the wait. */
  readonly failures: number
  /** When the next entry is accepted (ISO time), or null. */
  readonly retryAt: string | null
}

/** The text hashed: NFC, so a PIN typed with another input method's composition still matches. */
function pinBytes(pin: string): Buffer {
  return Buffer.from(pin.normalize('NFC'), 'utf8')
}

function derive(pin: string, salt: Buffer, params: ScryptParams, keyBytes: number) {
  // scrypt needs 128 × N × r bytes; Node's default cap (32 MiB) is exactly that at 2^15, so allow twice.
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    maxmem: 2 * 128 * params.N * params.r + 1024 * 1024,
  }
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(pinBytes(pin), salt, keyBytes, options, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

/**
 * A new record for `pin`: a fresh salt, {@link PIN_SCRYPT}'s parameters (a
 * test of the lock's decisions may pass a smaller `N`), no wrong entries.
 */
export async function hashPin(pin: string, N: number = PIN_SCRYPT.N): Promise<PinRecord> {
  const salt = randomBytes(PIN_SCRYPT.saltBytes)
  const hash = await derive(pin, salt, { ...PIN_SCRYPT, N }, PIN_SCRYPT.keyBytes)
  return {
    v: 1,
    kdf: 'scrypt',
    N,
    r: PIN_SCRYPT.r,
    p: PIN_SCRYPT.p,
    salt: salt.toString('base64'),
    hash: hash.toString('base64'),
    failures: 0,
    retryAt: null,
  }
}

/** Whether `pin` matches the record, compared in constant time. */
export async function verifyPin(pin: string, record: PinRecord): Promise<boolean> {
  const expected = Buffer.from(record.hash, 'base64')
  const key = await derive(pin, Buffer.from(record.salt, 'base64'), record, expected.length)
  return timingSafeEqual(key, expected)
}

/** A record read back from the keychain, or null when it is not one this build can check. */
export function parsePinRecord(raw: string): PinRecord | null {
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    return null
  }
  if (typeof value !== 'object' || value === null) return null
  const record = value as Record<string, unknown>
  const { N, r, p, salt, hash, failures, retryAt } = record
  const whole = (x: unknown, max: number): x is number =>
    typeof x === 'number' && Number.isSafeInteger(x) && x >= 1 && x <= max
  if (record['v'] !== 1 || record['kdf'] !== 'scrypt') return null
  if (!whole(N, MAX_N) || (N & (N - 1)) !== 0 || N < 2 || !whole(r, MAX_R) || !whole(p, MAX_P)) {
    return null
  }
  if (typeof salt !== 'string' || typeof hash !== 'string') return null
  const hashBytes = Buffer.from(hash, 'base64').length
  if (Buffer.from(salt, 'base64').length < 8 || hashBytes < 16 || hashBytes > 64) return null
  return {
    v: 1,
    kdf: 'scrypt',
    N,
    r,
    p,
    salt,
    hash,
    failures:
      typeof failures === 'number' && Number.isSafeInteger(failures) && failures > 0 ? failures : 0,
    retryAt: typeof retryAt === 'string' && !Number.isNaN(Date.parse(retryAt)) ? retryAt : null,
  }
}
