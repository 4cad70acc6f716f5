import type { PagedResourceName } from '../../../shared/cache'
import type { Client } from './client'
import { requestReveal, runCommand } from './commands.svelte'

/**
 * Opens a record by its list and idx, from a screen that knows only those
 * (the changes feed): asks where its list shows it (`records.locate`),
 * then asks the list screen to show it with its details open, searched by
 * what finds it alone (an inspection's number; a guarantee's idx on its
 * registration day). False when the list does not show it (a record gone
 * from the service is not listed).
 */
export async function openRecord(
  client: Client,
  resource: PagedResourceName,
  idx: number,
): Promise<boolean> {
  const place = await client.call('records.locate', { resource, idx })
  if (place === null) return false
  const day = place.registeredAt?.slice(0, 10)
  requestReveal(
    place.inspectionNum !== null
      ? { resource, idx, q: place.inspectionNum }
      : { resource, idx, q: String(idx), ...(day ? { from: day, to: day } : {}) },
  )
  runCommand(resource === 'inspections' ? 'go.inspections' : 'go.guarantees')
  return true
}
