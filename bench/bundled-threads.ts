/** A data thread's bundle beside the child's own (`import.meta.url` of a bundled child). */
export function bundledThreads(childUrl: string): {
  storeWorker: { owner: { url: URL }; checkpointer: { url: URL } }
  pageWorker: { url: URL }
  teamWorker: { url: URL }
} {
  const thread = (name: string): { url: URL } => ({ url: new URL(`./${name}.mjs`, childUrl) })
  return {
    storeWorker: { owner: thread('owner-worker'), checkpointer: thread('checkpoint-worker') },
    pageWorker: thread('page-worker'),
    teamWorker: thread('team-worker'),
  }
}
