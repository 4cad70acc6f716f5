import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { resolve } from 'node:path'
import { newFindings, findingKey, type Finding } from './electronegativity-baseline'

/**
 * `npm run lint:electron`: Doyensec's Electronegativity over `src`, offline.
 * The tool fetches translations and Electron's release list from the
 * network; here its HTTP client is replaced by one that fails at once (the
 * fetch of translations falls back to the bundled ones, and the release
 * check, AvailableSecurityFixesGlobalCheck, is skipped: Electron's version
 * is kept current through package.json instead). The Electron version is
 * the installed one. Every finding must be in the reviewed baseline
 * (`electronegativity-baseline.json`, each with the reason it stays); any
 * other fails. `--update` rewrites the baseline's list (the reasons stay to
 * be written by hand).
 */
const require = createRequire(import.meta.url)
const toolDir = resolve(require.resolve('@doyensec/electronegativity/package.json'), '..')
const got = require.resolve('got', { paths: [toolDir] })
const offline = Object.assign(() => Promise.reject(new Error('offline: no network lookups')), {
  get: () => Promise.reject(new Error('offline: no network lookups')),
})
require.cache[got] = { id: got, filename: got, loaded: true, exports: offline } as NodeJS.Module

const BASELINE = resolve('electronegativity-baseline.json')
// The runner's module is the run function itself (`module.exports = run`).
const run = require(resolve(toolDir, 'dist/runner.js')) as RunFn
type RunFn = (options: Record<string, unknown>) => Promise<{
  issues: Array<{ id: string; file: string; location: { line: number; column: number } }>
  errors: Array<{ file: string; message: string; tolerable: boolean }>
}>

const electronVersion = (
  JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8')) as { version: string }
).version
const input =
  process.argv.find(
    (arg) => !arg.startsWith('-') && arg !== process.argv[0] && arg !== process.argv[1],
  ) ?? 'src'
const result = await run({
  input: resolve(input),
  isRelative: true,
  verbose: false,
  excludeFromScan: ['AvailableSecurityFixesGlobalCheck'],
  electronVersionOverride: electronVersion,
})
const broken = result.errors.filter((error) => !error.tolerable)
for (const error of broken)
  console.error(`electronegativity could not parse ${error.file}: ${error.message}`)
const findings: Finding[] = result.issues.map((issue) => ({
  id: issue.id,
  file: issue.file,
  line: issue.location.line,
}))
const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as {
  findings: Array<Finding & { reason: string }>
}
if (process.argv.includes('--update')) {
  const reasons = new Map(baseline.findings.map((f) => [findingKey(f), f.reason]))
  const next = findings.map((f) => ({ ...f, reason: reasons.get(findingKey(f)) ?? 'TODO: review' }))
  writeFileSync(BASELINE, `${JSON.stringify({ ...baseline, findings: next }, null, 2)}\n`)
}
const fresh = newFindings(findings, baseline.findings)
for (const finding of fresh) {
  console.error(`new Electronegativity finding: ${finding.id} at ${finding.file}:${finding.line}`)
}
console.log(
  `Electronegativity (Electron ${electronVersion}): ${findings.length} finding(s), ${findings.length - fresh.length} reviewed in electronegativity-baseline.json, ${fresh.length} new.`,
)
process.exit(fresh.length > 0 || broken.length > 0 ? 1 : 0)
