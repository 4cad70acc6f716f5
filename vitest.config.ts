import { defineConfig } from 'vitest/config'
import { svelte } from '@sveltejs/vite-plugin-svelte'

/**
 * Three projects: `core` (plain Node, forks), `team` (plain Node against a
 * throwaway PostgreSQL cluster its global setup starts only when team tests
 * or the fuzz test run) and `renderer` (Svelte components and runes in jsdom, with Svelte's
 * browser build so components mount).
 */
export default defineConfig({
  plugins: [svelte()],
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'core',
          include: ['tests/core/**/*.test.ts'],
          exclude: ['tests/core/team/**', 'tests/core/fuzz/**'],
          environment: 'node',
          pool: 'forks',
        },
      },
      {
        extends: true,
        test: {
          name: 'team',
          // The fuzz test runs a core with a team server, so it needs the cluster too.
          include: ['tests/core/team/**/*.test.ts', 'tests/core/fuzz/**/*.test.ts'],
          environment: 'node',
          pool: 'forks',
          globalSetup: ['tests/support/team-global-setup.ts'],
        },
      },
      {
        extends: true,
        resolve: { conditions: ['browser'] },
        test: {
          name: 'renderer',
          include: ['tests/renderer/**/*.test.ts'],
          environment: 'jsdom',
          setupFiles: ['tests/renderer/setup.ts'],
        },
      },
    ],
  },
})
