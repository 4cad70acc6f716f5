import { once } from 'node:events'
import { getHeapSpaceStatistics } from 'node:v8'
import { holdMainYoungGeneration } from '../../src/core/heap-sizing'
import { spawnStoreThread } from '../../src/core/threads/spawn'

/**
 * A process for `heap-sizing.test.ts`: with `hold`, it sizes its heap as
 * the app's core does; then its main thread and a data thread (bound 8 MB)
 * each keep some objects alive across many collections, as a sync does.
 * Prints `HEAP={json}`: each one's young generation's capacity (MB, what
 * it holds between two collections) before and after.
 */

/** The young generation's capacity of the calling thread, MB. */
function newSpaceMb(): number {
  const space = getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')!
  return (space.space_used_size + space.space_available_size) / 2 ** 20
}

/** Allocates 3 million small objects, the last 20,000 alive at any time. */
function churn(): void {
  let kept: { i: number }[] = []
  for (let i = 0; i < 3e6; i += 1) {
    kept.push({ i })
    if (kept.length > 20_000) kept = []
  }
}

// The same two functions in the thread (its source is plain JavaScript once tsx has compiled them).
const threadSource = `import { getHeapSpaceStatistics } from 'node:v8'
import { parentPort } from 'node:worker_threads'
${newSpaceMb.toString()}
${churn.toString()}
const before = newSpaceMb()
churn()
parentPort.postMessage([before, newSpaceMb()])`

if (process.argv.includes('hold')) holdMainYoungGeneration()
const mainBefore = newSpaceMb()
const thread = spawnStoreThread(
  { url: new URL(`data:text/javascript,${encodeURIComponent(threadSource)}`) },
  { resourceLimits: { maxYoungGenerationSizeMb: 8 } },
)
const [[threadBefore, threadAfter]] = (await once(thread, 'message')) as [[number, number]]
await thread.terminate()
for (let i = 0; i < 4; i += 1) churn()
process.stdout.write(
  `HEAP=${JSON.stringify({ main: [mainBefore, newSpaceMb()], thread: [threadBefore, threadAfter] })}\n`,
)
