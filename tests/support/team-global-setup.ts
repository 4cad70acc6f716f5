import type { TestProject } from 'vitest/node'
import { startMigratedTeamCluster } from './team-cluster'

/**
 * Global setup of the `team` test project: one throwaway cluster for the run,
 * migrated with the project's own command (`npm run team -- migrate`), stopped
 * and removed at the end. There is no skipping: without PostgreSQL the run fails.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startMigratedTeamCluster()
  const { stop: _stop, pause: _pause, resume: _resume, dir: _dir, ...info } = cluster
  project.provide('teamCluster', info)
  return cluster.stop
}
