import type { StoreConnection } from '../store/connection'
import type { ChangeEntry, ChangeKind } from '../../shared/changes'
import { changeLines } from '../../shared/change-text'
import type { ExportFormat } from '../../shared/export'
import { message, type Locale } from '../../shared/i18n'
import type { PagedResource } from '../store/record-types'
import { listChanges } from '../store/queries/change-queries'
import { writeExport, type ExportColumn } from './export-file'

/**
 * The changes feed as a file: one line per entry, newest first, for the
 * view's filter (kinds, list); the sync's time a date cell in a workbook,
 * the change in the words the Changes view shows (labels as the service
 * sent them). Runs where the store runs, reading the feed by keyset pages.
 */

/** What {@link changesExport} writes. */
export interface ChangesExport {
  readonly resource?: PagedResource | undefined
  readonly kinds?: readonly ChangeKind[] | undefined
  readonly lang: Locale
  readonly format: ExportFormat
  readonly timeZone: string
}

/** Entries read per page. */
const PAGE = 500

function columnsOf(lang: Locale): ExportColumn<ChangeEntry>[] {
  const yes = message(lang, 'export.yes')
  return [
    { header: message(lang, 'changes.col.at'), value: (entry) => entry.at, type: 'date' },
    {
      header: message(lang, 'changes.col.list'),
      value: (entry) =>
        message(lang, entry.resource === 'inspections' ? 'nav.inspections' : 'nav.guarantees'),
    },
    {
      header: message(lang, 'changes.col.kind'),
      value: (e) => message(lang, `changes.kind.${e.kind}`),
    },
    { header: message(lang, 'field.idx'), value: (entry) => entry.idx },
    {
      header: message(lang, 'changes.col.change'),
      value: (entry) => changeLines(lang, entry.detail).join('; '),
    },
    { header: message(lang, 'changes.col.seen'), value: (entry) => (entry.seen ? yes : '') },
  ]
}

/** The file and how many entries it holds. */
export async function changesExport(
  db: StoreConnection,
  job: ChangesExport,
): Promise<{ data: string | Uint8Array; rows: number }> {
  const entries: ChangeEntry[] = []
  let before: number | undefined
  do {
    const page = listChanges(db, {
      resource: job.resource,
      kinds: job.kinds,
      limit: PAGE,
      ...(before === undefined ? {} : { before }),
    })
    entries.push(...page.entries)
    before = page.nextBefore ?? undefined
  } while (before !== undefined)
  const data = await writeExport(entries, columnsOf(job.lang), {
    format: job.format,
    timeZone: job.timeZone,
    sheet: message(job.lang, 'nav.changes'),
  })
  return { data, rows: entries.length }
}
