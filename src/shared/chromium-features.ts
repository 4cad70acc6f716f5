/**
 * Chromium features the app's renderer runs without, passed as
 * `--disable-features` by the Electron shell (`src/main/index.ts`) and by
 * the bench's Chromium (`bench/ui.ts`), so the bench measures the renderer
 * the app runs.
 *
 * - `DeferRendererTasksAfterInput`: after a key press Chromium holds every
 *   other task of the page until the key's own frame is drawn, the answer
 *   to the search that key started included. The list then paints its rows
 *   a frame later than it could: the answer usually arrives within that
 *   frame, and handling it takes a millisecond or two.
 */
export const DISABLED_CHROMIUM_FEATURES: readonly string[] = ['DeferRendererTasksAfterInput']
