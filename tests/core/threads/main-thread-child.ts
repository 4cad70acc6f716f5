import { startChildCore } from './child-core'

/**
 * A core in a process of its own, as a host runs it: it syncs every list,
 * answers a query of each, serves a card image twice (fetched, then from the
 * image cache's index), switches nothing else, and prints the built-in
 * modules its main thread loaded (`process.moduleLoadList` is per thread).
 */
const child = await startChildCore('main-thread', 60)
const { core } = child
const steps: string[] = []
const dispatch = async (channel: string, args: unknown): Promise<unknown> => {
  const value = await child.dispatch(channel, args)
  steps.push(channel)
  return value
}
await dispatch('sync.start', { resources: ['brands', 'inspections', 'guarantees'], mode: 'full' })
await core.sync.idle()
await dispatch('inspections.query', { limit: 5 })
const guarantees = await dispatch('guarantees.query', { limit: 5 })
await dispatch('brands.search', { query: '' })
const url = /https?:\/\/[^"]+\/cards\/\d+\.(?:png|gif)/.exec(JSON.stringify(guarantees))?.[0] ?? ''
for (let i = 0; i < 2; i += 1) {
  const served = await core.images.serve(`/u/${Buffer.from(url).toString('base64url')}`)
  steps.push(`card:${served.ok ? 'ok' : served.code}`)
}
await child.close()
process.stdout.write(
  `RESULT=${JSON.stringify({ steps, sqlite: (process as unknown as { moduleLoadList: string[] }).moduleLoadList.filter((m) => /sqlite/i.test(m)) })}\n`,
)
