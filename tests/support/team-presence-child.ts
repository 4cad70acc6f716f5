import { TeamSync } from '../../src/core/team/team-sync'
import { MemoryTeamSide } from './memory-team-side'

/**
 * A child process that connects as a member, says it has one record open and
 * keeps its heartbeat, until it is killed: the presence test sends it
 * SIGKILL, as when the app's host dies, to see its presence go without a
 * goodbye. Arguments: the server config as JSON, the partner id, the
 * resource, the idx. Prints `connected` once connected.
 */
const [configJson, partnerId, resource, idx] = process.argv.slice(2)
if (!configJson || !partnerId || (resource !== 'inspections' && resource !== 'guarantees') || !idx)
  throw new Error('usage: team-presence-child CONFIG PARTNER RESOURCE IDX')
let told = false
const sync = new TeamSync({
  config: JSON.parse(configJson),
  partnerId,
  local: new MemoryTeamSide(),
  backoffMs: { base: 10, max: 50 },
  onStatus: (status) => {
    if (status.state === 'connected' && !told) {
      told = true
      process.stdout.write('connected\n')
    }
  },
})
sync.setPresence({ resource, idx: Number(idx) })
sync.start()
