/**
 * Removes secrets from text bound for logs, errors and IPC answers. The
 * wallet-link URLs carry the API key in their path, and any message may echo
 * a header, so every known secret is replaced wherever it appears.
 */
export class Redactor {
  readonly #secrets = new Set<string>()

  /** Registers a value that must never appear in output (ignored when shorter than 4 characters). */
  add(secret: string | undefined | null): void {
    if (secret && secret.length >= 4) {
      this.#secrets.add(secret)
      this.#secrets.add(encodeURIComponent(secret))
    }
  }

  /** Forgets a value (after its profile was removed). */
  delete(secret: string): void {
    this.#secrets.delete(secret)
    this.#secrets.delete(encodeURIComponent(secret))
  }

  /** Returns `text` with every registered secret replaced by `[redacted]`. */
  redact(text: string): string {
    let out = text
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.split(secret).join('[redacted]')
    }
    return out
  }
}

/** Strips query and fragment from a URL for logs, where they might hold a token. */
export function urlForLog(url: string): string {
  try {
    const parsed = new URL(url)
    return `${parsed.origin}${parsed.pathname}`
  } catch {
    return '[invalid url]'
  }
}
