import { describe, expect, it } from 'vitest'
import { MIN_RUN, Redactor } from '../../../src/core/redact'
import { ECHO_FORMS } from '../../../src/sandbox/faults'
import { echoed } from '../../../src/sandbox/echo'

const KEY = 'sbx_key_0123456789abcdef01234567'
const SECRET = 'sbx_secret_fedcba9876543210fedcba9876543210abcdef01'

function redactor(): Redactor {
  const r = new Redactor()
  r.add(KEY)
  r.add(SECRET)
  return r
}

describe('Redactor', () => {
  it.each(ECHO_FORMS)('removes the key and the secret echoed %s', (form) => {
    const text = `Rejected key ${echoed(KEY, form)} with secret ${echoed(SECRET, form)}.`
    const out = redactor().redact(text)
    expect(out).toMatch(/^Rejected key .*\[redacted\].* with secret .*\[redacted\].*\.$/)
    for (const secret of [KEY, SECRET]) {
      // No run of MIN_RUN characters of the value, or of its echoed form, survives in any case.
      // The prefixes `base64` and `prefixed` add are not the secret's: only what derives from it counts.
      const own =
        form === 'base64'
          ? echoed(secret, form).slice(12, -4)
          : form === 'prefixed'
            ? secret
            : echoed(secret, form)
      const forms = [secret, own].map((f) => f.toLowerCase())
      for (const f of forms) {
        for (let i = 0; i + MIN_RUN <= f.length; i += 1) {
          const run = f.slice(i, i + MIN_RUN)
          if (!`Rejected key  with secret .`.toLowerCase().includes(run)) {
            expect(out.toLowerCase()).not.toContain(run)
          }
        }
      }
    }
  })

  it('finds base64 of the secret at every byte offset inside a longer encoded text', () => {
    for (const prefix of ['', 'a', 'ab', 'Basic:', 'user:pass:']) {
      const encoded = Buffer.from(`${prefix}${SECRET}!`).toString('base64')
      expect(redactor().redact(`auth=${encoded}`)).toContain('[redacted]')
      expect(redactor().redact(`auth=${encoded}`)).not.toContain(encoded.slice(12, 30))
    }
  })

  it('leaves text with no run of a secret alone, Korean included', () => {
    const text = '키 sbx_ke 는 거절되었습니다 (401): request 0123456 ok'
    expect(redactor().redact(text)).toBe(text)
    expect(new Redactor().redact(KEY)).toBe(KEY)
  })

  it('merges overlapping runs into one mark and keeps the text around them', () => {
    expect(redactor().redact(`[${KEY}${SECRET}]`)).toBe('[[redacted]]')
    expect(redactor().redact(`a ${SECRET.slice(5, 15)} b`)).toBe('a [redacted] b')
  })

  it('matches short secrets (4 to 7 characters) whole, in any case', () => {
    const r = new Redactor()
    r.add('Ab12')
    expect(r.redact('x ab12 y AB12')).toBe('x [redacted] y [redacted]')
  })
})
