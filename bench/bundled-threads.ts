import { appThreads, type AppThreads } from '../src/core/threads/entries'

/** The data threads' bundles beside the child's own (`import.meta.url` of a bundled child, `bundle.ts`). */
export function bundledThreads(childUrl: string): AppThreads {
  return appThreads((name) => ({ url: new URL(`./${name}.mjs`, childUrl) }))
}
