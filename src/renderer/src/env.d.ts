/// <reference types="svelte" />
/// <reference types="vite/client" />
import type { AppApi } from '../../shared/contract'

declare global {
  interface Window {
    /** Set by the Electron preload; absent in the web host, where `lib/api.ts` supplies it. */
    api?: AppApi
  }
}
