import { spawnSync } from 'node:child_process'
import { resolve } from 'node:path'
import { getConfig } from 'app-builder-lib/out/util/config/config'
import { feedArgs } from './package-feed'
import { builtBinaries, fuseMismatches } from './fuse-check'

/**
 * `npm run package`: electron-builder with the update feed of
 * `UPDATE_FEED_URL` (scripts/package-feed.ts), never publishing itself;
 * code signing and notarization settings come from the environment, as
 * electron-builder reads them (docs/release.md). Afterwards every built
 * binary's fuses are read back and compared with `electronFuses`.
 */
const root = resolve(import.meta.dirname, '..')
const args = ['--publish', 'never', ...feedArgs(process.env), ...process.argv.slice(2)]
console.log(
  args.length > 2
    ? `Update feed: ${args.find((arg) => arg.startsWith('-c.publish.url='))?.slice(15)}`
    : 'No UPDATE_FEED_URL: this package does not check for updates.',
)
const run = spawnSync('electron-builder', args, {
  stdio: 'inherit',
  shell: process.platform === 'win32',
})
if (run.status !== 0) process.exit(run.status ?? 1)

const config = await getConfig(root, 'electron-builder.yml', null)
const expected = (config.electronFuses ?? {}) as Record<string, boolean | undefined>
const binaries = builtBinaries(resolve(root, config.directories?.output ?? 'dist'), {
  product: config.productName ?? 'Appraisal Desk',
  executable: config.linux?.executableName ?? 'appraisal-desk',
})
if (binaries.length === 0) {
  console.error('Fuse check: no built Electron binary found in the output folder.')
  process.exit(1)
}
let failed = false
for (const binary of binaries) {
  const wrong = await fuseMismatches(binary, expected)
  console.log(`Fuses of ${binary}: ${wrong.length === 0 ? 'as configured' : wrong.join('; ')}`)
  failed ||= wrong.length > 0
}
process.exit(failed ? 1 : 0)
