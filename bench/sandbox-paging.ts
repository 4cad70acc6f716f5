import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createInterface } from 'node:readline'

/**
 * `npx tsx bench/sandbox-paging.ts [size] [pages]`: starts the sandbox CLI
 * as a child process with `--size` records (default 1 000 000), pages
 * through the guarantee and inspection lists (default 2000 pages of 100,
 * from the start, the middle and the end, with and without filters), and
 * prints the page latencies and the child's resident memory over time.
 * Memory is read from /proc (Linux).
 */
const size = Number(process.argv[2] ?? 1_000_000)
const pages = Number(process.argv[3] ?? 2000)

const child = spawn(
  process.execPath,
  ['--import', 'tsx', 'src/sandbox/cli.ts', '--size', String(size), '--seed', '1'],
  { stdio: ['ignore', 'pipe', 'inherit'] },
)
const line = await new Promise<string>((resolve) => {
  createInterface({ input: child.stdout }).on('line', (text) => {
    if (text.startsWith('SANDBOX=')) resolve(text.slice('SANDBOX='.length))
  })
})
const sandbox = JSON.parse(line) as {
  baseUrl: string
  partnerId: string
  apiKey: string
  apiSecret: string
}
const headers = { 'X-Service-API-Key': sandbox.apiKey, Authorization: sandbox.apiSecret }

function rssMb(): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024
}

const queries = [
  'guarantee?pageSize=100&page=',
  'inspection?pageSize=100&sort=oldest&page=',
  'guarantee?pageSize=100&nftStatus=ready&from=2023-01-01&to=2024-12-31&page=',
  `inspection?pageSize=100&status=${encodeURIComponent('배송완료')}&page=`,
]
const times: number[] = []
const memory: string[] = [`start ${rssMb().toFixed(1)} MB`]
for (let n = 0; n < pages; n += 1) {
  const query = queries[n % queries.length]
  // Spread the pages over the whole dataset: start, middle and end.
  const page = 1 + ((n * 7919) % Math.max(1, Math.floor(size / 100 / 4)))
  const started = performance.now()
  const response = await fetch(
    `${sandbox.baseUrl}/v1/partner/${sandbox.partnerId}/${query}${page}`,
    { headers },
  )
  await response.arrayBuffer()
  times.push(performance.now() - started)
  if ((n + 1) % Math.max(1, Math.floor(pages / 5)) === 0)
    memory.push(`after ${n + 1} pages ${rssMb().toFixed(1)} MB`)
}
times.sort((a, b) => a - b)
const at = (q: number): string =>
  (times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0).toFixed(2)
console.log(
  `size ${size}, ${pages} pages of 100: median ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${at(1)} ms`,
)
console.log(`sandbox RSS: ${memory.join('; ')}`)
child.kill('SIGTERM')
