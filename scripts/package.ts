import { spawnSync } from 'node:child_process'
import { feedArgs } from './package-feed'

/**
 * `npm run package`: electron-builder with the update feed of
 * `UPDATE_FEED_URL` (scripts/package-feed.ts), never publishing itself.
 */
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
process.exit(run.status ?? 1)
