import { vitePreprocess } from '@sveltejs/vite-plugin-svelte'

/** Svelte 5 in runes mode everywhere. */
export default {
  preprocess: vitePreprocess(),
  compilerOptions: { runes: true },
}
