import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES } from '../../../src/shared/i18n'

/**
 * The message files as written. A JSON file may hold one key twice and
 * every reader keeps only the last, so one of the two texts is lost without
 * a word (the app menu's "Close Window" once read "Close the menu").
 */
describe('message files as written', () => {
  it.each(LOCALES)('%s writes no key twice', (locale) => {
    const text = readFileSync(
      join(import.meta.dirname, '../../../messages', `${locale}.json`),
      'utf8',
    )
    const keys = [...text.matchAll(/^ {2}"([^"]+)":/gmu)].map((match) => match[1]!)
    expect(keys.length).toBeGreaterThan(300)
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([])
  })
})
