/**
 * A short form of a person's name for a narrow cell (the review column): a
 * Korean name of three or more syllables by its given name (김민지 → 민지),
 * a shorter one whole; other names by the first letters of their first two
 * words (Jisoo Park → JP, park_jisoo → PJ), a single word by its first two
 * letters. The full name goes in the cell's tooltip.
 */
export function initialsOf(name: string): string {
  const trimmed = name.trim()
  if (/^\p{Script=Hangul}+$/u.test(trimmed)) {
    const syllables = [...trimmed]
    return syllables.length >= 3 ? syllables.slice(-2).join('') : trimmed
  }
  const words = trimmed.split(/[\s._@-]+/u).filter((word) => word !== '')
  if (words.length === 0) return ''
  if (words.length === 1) {
    const letters = [...words[0]!]
    return (letters[0]!.toLocaleUpperCase() + (letters[1] ?? '')).trim()
  }
  return words
    .slice(0, 2)
    .map((word) => [...word][0]!.toLocaleUpperCase())
    .join('')
}
