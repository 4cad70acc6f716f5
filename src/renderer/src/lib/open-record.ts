import type { PagedResourceName } from '../../../shared/cache'
import type { Client } from './client'
import { requestReveal, runCommand } from './commands.svelte'

/** Pages of a search for a record's idx read at most before giving up (a one-digit idx matches much). */
const MAX_PAGES = 20

/**
 * Opens a record by its list and idx, from a screen that knows only those
 * (the changes feed): finds the row by its idx among the matches of a
 * search for it, then asks the list screen to show it with its details
 * open, searched by what finds it alone (an inspection's number; a
 * guarantee's idx on its registration day). False when the list does not
 * hold it (a record gone from the service is not listed).
 */
export async function openRecord(
  client: Client,
  resource: PagedResourceName,
  idx: number,
): Promise<boolean> {
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const args = { q: String(idx), limit: 500, ...(cursor ? { cursor } : {}) }
    const answer =
      resource === 'inspections'
        ? await client.call('inspections.query', args)
        : await client.call('guarantees.query', args)
    const row = answer.rows.find((candidate) => candidate.idx === idx)
    if (row) {
      const day = row.registeredAt?.slice(0, 10)
      requestReveal(
        'inspectionNum' in row
          ? { resource, idx, q: row.inspectionNum }
          : { resource, idx, q: String(idx), ...(day ? { from: day, to: day } : {}) },
      )
      runCommand(resource === 'inspections' ? 'go.inspections' : 'go.guarantees')
      return true
    }
    if (!answer.nextCursor) return false
    cursor = answer.nextCursor
  }
  return false
}
