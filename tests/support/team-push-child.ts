import { openStore } from '../../src/core/store/schema/database'
import { directTeamCall, StoreTeamSide } from '../../src/core/team/store-side'
import { TeamSync } from '../../src/core/team/team-sync'

/**
 * A child process that pushes a profile's outbox to the team server in small
 * batches and never stops by itself: the kill test sends it SIGKILL in the
 * middle of the push. Arguments: the store file, the server config as JSON,
 * the partner id.
 */
const [file, configJson, partnerId] = process.argv.slice(2)
if (!file || !configJson || !partnerId)
  throw new Error('usage: team-push-child FILE CONFIG PARTNER')
const { db } = openStore(file)
const sync = new TeamSync({
  config: JSON.parse(configJson),
  partnerId,
  local: new StoreTeamSide(directTeamCall(db), 'Asia/Seoul'),
  pushBatch: 20,
  backoffMs: { base: 10, max: 50 },
})
sync.start()
