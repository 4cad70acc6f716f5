import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BootedCore } from '../../support/boot'
import { MemoryStore } from '../../../src/core/vault/memory-store'
import { profileInputSchema } from '../../../src/shared/profile-schemas'
import { textProblem } from '../../../src/shared/text-rules'
import type { ProfileList, ProfileView } from '../../../src/shared/profiles'
import { bootForTest, call } from '../helpers/core'

/** Profile names that try to trick the eye or the terminal are refused. */
const cores: BootedCore[] = []
afterEach(async () => {
  for (const core of cores.splice(0)) await core.close()
})

async function boot(dataDir?: string) {
  const core = await bootForTest({
    keychain: new MemoryStore(),
    keychainService: 'profile-names-test',
    ...(dataDir ? { dataDir } : {}),
  })
  cores.push(core)
  return core
}

const profile = (name: string, partnerId = 'shop-1') => ({
  name,
  baseUrl: 'https://partner.good.example',
  staticUrl: 'https://static.good.example',
  partnerId,
  redirectUri: 'https://shop.good.example/wallet/done',
})

describe('profile names', () => {
  it.each([
    ['NUL', 'Shop\u0000A', 'control'],
    ['a bell', 'Shop\u0007', 'control'],
    ['an escape sequence', '\u001b[31mShop', 'control'],
    ['a newline', 'Shop\nA', 'control'],
    ['a tab', 'Shop\tA', 'control'],
    ['DEL', 'Shop\u007f', 'control'],
    ['a C1 control', 'Shop\u0085', 'control'],
    ['a line separator', 'Shop\u2028A', 'control'],
    ['a byte-order mark', '\ufeffShop', 'control'],
    ['a lone surrogate', 'Shop\ud800', 'control'],
    ['a right-to-left override', 'Shop\u202Egpj.exe', 'bidi'],
    ['a left-to-right embedding', '\u202AShop', 'bidi'],
    ['a right-to-left isolate', 'Shop\u2067A\u2069', 'bidi'],
    ['a right-to-left mark', 'Shop\u200F', 'bidi'],
    ['an Arabic letter mark', 'Shop\u061C', 'bidi'],
    ['only spaces', '   ', 'empty'],
    ['81 characters', '가'.repeat(81), 'too_long'],
  ])('refuses a name with %s, naming the field', async (_what, name, problem) => {
    expect(textProblem(name, 80)).toBe(problem)
    const core = await boot()
    const answer = await core.router.dispatch('profiles.save', profile(name))
    expect(answer.ok).toBe(false)
    if (answer.ok) return
    expect(answer.error.code).toBe('invalid_argument')
    expect(answer.error.message).toMatch(/^Invalid arguments: name: /)
    // Nothing was saved.
    const list = await call(core, 'profiles.list')
    expect(list.profiles.map((p) => p.name)).toEqual(['Sandbox'])
  })

  it('refuses the same characters in the partner id', async () => {
    const core = await boot()
    const answer = await core.router.dispatch('profiles.save', profile('Shop', 'shop\u202E1'))
    expect(answer.ok || answer.error.message).toMatch(/partnerId: .*text-direction/)
  })

  it('refuses the same characters in the reviewer name that signs review marks; empty stays allowed', async () => {
    const core = await boot()
    const bad = await core.router.dispatch('settings.set', { reviewerName: '김\u202E감정' })
    expect(bad.ok || bad.error.message).toMatch(
      /^Invalid arguments: reviewerName: .*text-direction/,
    )
    const nul = await core.router.dispatch('settings.set', { reviewerName: '김\u0000' })
    expect(nul.ok).toBe(false)
    expect((await call(core, 'settings.set', { reviewerName: '' })).reviewerName).toBe('')
    const named = await call(core, 'settings.set', { reviewerName: ' 김감정 '.normalize('NFD') })
    expect(named.reviewerName).toBe('김감정')
  })

  it('stores the name NFC-normalised and trimmed, and accepts 80 characters', async () => {
    const core = await boot()
    const decomposed = ' 명품 감정'.normalize('NFD') + ' '
    expect(decomposed.length).toBeGreaterThan(7)
    const saved = await call(core, 'profiles.save', profile(decomposed))
    expect(saved.name).toBe('명품 감정')
    expect(saved.name).toBe(saved.name.normalize('NFC'))
    // The cap counts characters after NFC: 80 decomposed Hangul syllables are 160+ code units.
    const long = await call(core, 'profiles.save', profile('한'.repeat(80).normalize('NFD')))
    expect(long.name).toBe('한'.repeat(80))
    // Emoji and other scripts are fine.
    expect(profileInputSchema.safeParse(profile('Boutique 👜 ميلانو')).success).toBe(true)
  })

  it('strips such characters from a hand-edited settings file instead of losing the profile', async () => {
    const first = await boot()
    const saved: ProfileView = await call(first, 'profiles.save', profile('Shop'))
    const dataDir = first.dataDir
    await first.close()
    cores.splice(cores.indexOf(first), 1)

    const file = join(dataDir, 'settings.json')
    const doc = JSON.parse(readFileSync(file, 'utf8')) as {
      profiles: { id: string; name: string }[]
    }
    doc.profiles = doc.profiles.map((p) =>
      p.id === saved.id ? { ...p, name: '\u202Egpj.\u0000Shop' } : p,
    )
    writeFileSync(file, JSON.stringify(doc))

    const again = await boot(dataDir)
    const list: ProfileList = await call(again, 'profiles.list')
    expect(list.profiles.find((p) => p.id === saved.id)?.name).toBe('gpj.Shop')
  })
})
