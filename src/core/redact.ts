/**
 * Removes secrets from text bound for logs, errors and IPC answers. The
 * wallet-link URLs carry the API key in their path, and a service may echo a
 * header back in its error body, as sent or altered: upper- or lower-cased,
 * base64 or base64url, URL-encoded, hex, with a prefix, or cut short. Every
 * registered secret is looked for in each of those forms, and any run of
 * {@link MIN_RUN} or more characters of any form is replaced, in any case.
 */
export class Redactor {
  /** Lower-cased runs of {@link MIN_RUN} characters of every form of every secret. */
  readonly #runs = new Set<string>()
  /** Lower-cased forms shorter than {@link MIN_RUN}, matched whole. */
  readonly #short = new Set<string>()

  /** Registers a value that must never appear in output (ignored when shorter than 4 characters). */
  add(secret: string | undefined | null): void {
    if (!secret || secret.length < 4) return
    for (const form of formsOf(secret)) {
      const lower = asciiLower(form)
      if (lower.length < MIN_RUN) {
        this.#short.add(lower)
        continue
      }
      for (let i = 0; i + MIN_RUN <= lower.length; i += 1) {
        this.#runs.add(lower.slice(i, i + MIN_RUN))
      }
    }
  }

  /** Returns `text` with every run of a registered secret's forms replaced by `[redacted]`. */
  redact(text: string): string {
    if (this.#runs.size === 0 && this.#short.size === 0) return text
    const lower = asciiLower(text)
    const covered = new Uint8Array(text.length)
    for (let i = 0; i + MIN_RUN <= lower.length; i += 1) {
      if (this.#runs.has(lower.slice(i, i + MIN_RUN))) covered.fill(1, i, i + MIN_RUN)
    }
    for (const form of this.#short) {
      for (let at = lower.indexOf(form); at !== -1; at = lower.indexOf(form, at + 1)) {
        covered.fill(1, at, at + form.length)
      }
    }
    let out = ''
    for (let i = 0; i < text.length;) {
      if (!covered[i]) {
        out += text[i]
        i += 1
        continue
      }
      while (i < text.length && covered[i]) i += 1
      out += REDACTED
    }
    return out
  }
}

/**
 * The shortest run of a secret's characters that is redacted on its own.
 * @internal
 */
export const MIN_RUN = 8

const REDACTED = '[redacted]'

/**
 * The forms a service may echo a secret in. Base64 depends on where the
 * secret starts inside the encoded text, so it is encoded at each of the
 * three byte offsets and only the characters that depend on the secret alone
 * are kept.
 */
function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8')
  const forms = [
    secret,
    encodeURIComponent(secret),
    // Every byte escaped, as some gateways log headers.
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    bytes.toString('hex'),
  ]
  for (let offset = 0; offset < 3; offset += 1) {
    const shifted = Buffer.concat([Buffer.alloc(offset), bytes])
    for (const encoding of ['base64', 'base64url'] as const) {
      const encoded = shifted.toString(encoding).replace(/=+$/, '')
      // Characters touched by the filler before, or by the padding after, are not the secret's.
      const start = offset === 0 ? 0 : 4
      const end = encoded.length - (shifted.length % 3 === 0 ? 0 : 4)
      if (end - start >= 4) forms.push(encoded.slice(start, end))
    }
  }
  return [...new Set(forms)]
}

/** Lower-cases A–Z only, so positions in the result are positions in `text`. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase())
}
