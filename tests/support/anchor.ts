/**
 * The sandbox's "now" in tests that depend on its dates: 2026-11-21 00:00 in
 * Seoul, so the newest generated record is from 2026-11-20 18:00. The hosts
 * anchor the demo to the moment they start instead (`src/sandbox/dataset.ts`).
 */
export const SANDBOX_ANCHOR = Date.parse('2026-11-21T00:00:00+09:00')
