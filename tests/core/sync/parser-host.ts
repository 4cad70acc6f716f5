import { parentPort } from 'node:worker_threads'
import { parsePageBody } from '../../../src/core/sync/page-thread/worker'
import type { PageBody } from '../../../src/core/sync/page-thread/protocol'

/**
 * A worker thread of another kind that borrows the page thread's parser: it
 * answers each `{ id, input }` with the parsed page's count of records received. The page
 * thread's entry, loaded here, must not serve on this thread's port too.
 */
if (!parentPort) throw new Error('parser-host runs only as a worker thread')
const port = parentPort
port.on('message', ({ id, input }: { id: number; input: PageBody }) => {
  port.postMessage({ id, host: true, received: parsePageBody(input).received })
})
