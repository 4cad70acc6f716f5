/**
 * `date` as wall-clock text `YYYY-MM-DD HH:MM:SS` in `timeZone`, the way the
 * service writes its timestamps (core stamps review marks and exports with
 * it; the renderer shows instants with it).
 */
export function localTimestamp(date: Date, timeZone: string): string {
  const parts = formatterOf(timeZone).formatToParts(date)
  const get = (type: Intl.DateTimeFormatPartTypes): string =>
    parts.find((part) => part.type === type)?.value ?? ''
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`
}

/** One formatter per time zone: making one costs far more than formatting with it. */
const formatters = new Map<string, Intl.DateTimeFormat>()

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone)
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
    formatters.set(timeZone, formatter)
  }
  return formatter
}
