import { appThreads, THREAD_ENTRIES, type AppThreads } from './entries'

/**
 * The data threads' entries as the TypeScript sources (`entries.ts`), loaded
 * through tsx, for the hosts that run from source (the web host, the tests,
 * the bench). The Electron app passes the bundled files instead
 * (`src/main/index.ts`).
 */
export function sourceThreads(): AppThreads {
  return appThreads((name) => ({
    url: new URL(`../${THREAD_ENTRIES[name]}`, import.meta.url),
    execArgv: ['--import', 'tsx'],
  }))
}
