/**
 * A date as staff type it, in the app's own order (year, month, day) whatever
 * the browser's locale: `2026-11-23`, `2026.11.23`, `2026/11/23` or
 * `20261123`. Answers the ISO date (`YYYY-MM-DD`), `''` for an empty field,
 * or null when the text is not a real calendar date.
 */
export function parseDateInput(text: string): string | null {
  const trimmed = text.trim().replace(/\.$/, '')
  if (trimmed === '') return ''
  const match =
    /^(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})$/.exec(trimmed) ??
    /^(\d{4})(\d{2})(\d{2})$/.exec(trimmed)
  if (!match) return null
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])]
  if (year < 1900 || month < 1 || month > 12 || day < 1) return null
  const date = new Date(Date.UTC(year, month - 1, day))
  if (date.getUTCMonth() !== month - 1) return null
  return `${match[1]}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}
