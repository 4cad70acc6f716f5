import type { EchoForm } from './faults'

/**
 * A credential altered the way careless services echo it back in an error
 * body: re-cased, base64- or URL-encoded, hex, prefixed, or only a run of it.
 */
export function echoed(value: string, form: EchoForm): string {
  const bytes = Buffer.from(value, 'utf8')
  switch (form) {
    case 'exact':
      return value
    case 'upper':
      return value.toUpperCase()
    case 'lower':
      return value.toLowerCase()
    case 'base64':
      // After a prefix, as in `Basic base64(user:key)`: the secret does not start on a 3-byte boundary.
      return Buffer.concat([Buffer.from('partner:'), bytes]).toString('base64')
    case 'base64url':
      return bytes.toString('base64url')
    case 'url':
      // Every character escaped, as some gateways log headers.
      return [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
    case 'hex':
      return bytes.toString('hex').toUpperCase()
    case 'prefixed':
      return `key=${value}`
    case 'run':
      // Ten characters from the middle, as a truncated log line shows them.
      return value.slice(Math.max(0, Math.floor(value.length / 2) - 5)).slice(0, 10)
  }
}

/** Bytes of `text` in EUC-KR (KS X 1001 through the WHATWG euc-kr index); unmapped characters become `?`. */
export function encodeEucKr(text: string): Buffer {
  const table = eucKrTable()
  const out: number[] = []
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0x3f
    if (code < 0x80) {
      out.push(code)
      continue
    }
    const pair = table.get(char)
    if (pair === undefined) out.push(0x3f)
    else out.push(pair >> 8, pair & 0xff)
  }
  return Buffer.from(out)
}

let table: Map<string, number> | null = null

/** Character → two-byte code, built once by decoding every two-byte sequence with the runtime's decoder. */
function eucKrTable(): Map<string, number> {
  if (table) return table
  const decoder = new TextDecoder('euc-kr', { fatal: true })
  const built = new Map<string, number>()
  for (let lead = 0x81; lead <= 0xfe; lead += 1) {
    for (let trail = 0x41; trail <= 0xfe; trail += 1) {
      let char: string
      try {
        char = decoder.decode(Uint8Array.of(lead, trail))
      } catch {
        continue
      }
      if (char.length > 0 && !built.has(char)) built.set(char, (lead << 8) | trail)
    }
  }
  table = built
  return built
}
