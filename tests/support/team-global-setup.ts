import { execFile as execFileCallback } from 'node:child_process'
import { promisify } from 'node:util'
import type { TestProject } from 'vitest/node'
import { startTeamCluster } from './team-cluster'

const execFile = promisify(execFileCallback)

/**
 * Global setup of the `team` test project: one throwaway cluster for the run,
 * migrated with the project's own command (`npm run team -- migrate`), stopped
 * and removed at the end. There is no skipping: without PostgreSQL the run fails.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startTeamCluster()
  try {
    const url = `postgres://${cluster.adminUser}:${encodeURIComponent(cluster.adminPassword)}@${cluster.host}:${cluster.port}/${cluster.database}`
    await execFile('npm', [
      'run',
      '--silent',
      'team',
      '--',
      'migrate',
      '--url',
      url,
      '--ca',
      cluster.caFile,
    ])
  } catch (error) {
    await cluster.stop()
    throw error
  }
  const { stop: _stop, dir: _dir, ...info } = cluster
  project.provide('teamCluster', info)
  return cluster.stop
}
