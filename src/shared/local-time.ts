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

/** A service time as stored (`YYYY-MM-DD HH:MM:SS`, or `T` between): its parts, or null. */
const SERVICE_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/

/** The zone's offset (ms) per local hour already asked: a sync asks for the same few hours. */
const offsets = new Map<string, number>()

/**
 * The instant (milliseconds since 1970, UTC) of a wall-clock time `local`
 * in `timeZone`, the way the partner API writes its times (no offset: the
 * profile's zone), or null when `local` is not such a time. A time a clock
 * change skips reads as the hour after it; a time it repeats, as the first
 * of the two.
 */
export function msOfLocal(local: string, timeZone: string): number | null {
  const m = SERVICE_TIME.exec(local)
  if (!m) return null
  const [year, month, day, hour, minute, second] = m.slice(1).map((part) => Number(part ?? 0))
  const asUtc = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!)
  if (Number.isNaN(asUtc)) return null
  const key = `${timeZone}\u0000${m[1]}-${m[2]}-${m[3]} ${m[4]}`
  let offset = offsets.get(key)
  if (offset === undefined) {
    // The offset at the guess, then at the instant it gives (right across a clock change).
    offset = offsetAt(asUtc, timeZone)
    const second = offsetAt(asUtc - offset, timeZone)
    if (second !== offset && offsetAt(asUtc - second, timeZone) === second) offset = second
    if (offsets.size > 50_000) offsets.clear()
    offsets.set(key, offset)
  }
  return asUtc - offset
}

/** How far `timeZone`'s wall clock is ahead of UTC at instant `at` (ms). */
function offsetAt(at: number, timeZone: string): number {
  const wall = localTimestamp(new Date(at), timeZone)
  const [date, time] = wall.split(' ')
  const [y, mo, d] = date!.split('-').map(Number)
  const [h, mi, s] = time!.split(':').map(Number)
  return (
    Date.UTC(y!, mo! - 1, d!, h! === 24 ? 0 : h!, mi!, s!) - (at - (((at % 1000) + 1000) % 1000))
  )
}
