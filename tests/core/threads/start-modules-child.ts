import { registerHooks } from 'node:module'

/**
 * A core in a process of its own, as a host starts it: it answers the first
 * page of a list, then exports that list, and prints the modules its main
 * thread had loaded by each point. The hook is registered before any module
 * of the app is imported, so it sees them all.
 */
const loaded: string[] = []
registerHooks({
  load(url, context, next) {
    loaded.push(url)
    return next(url, context)
  },
})
const { startChildCore } = await import('./child-core')
const child = await startChildCore('start-modules', 20)
await child.dispatch('inspections.query', { limit: 50 })
const atStart = [...loaded]
await child.dispatch('lists.export', { resource: 'inspections', lang: 'ko', format: 'csv' })
const afterExport = [...loaded]
await child.close()
process.stdout.write(`RESULT=${JSON.stringify({ atStart, afterExport })}\n`)
