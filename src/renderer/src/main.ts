import 'pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css'
import './styles.css'
import './list-page.css'
import './form-panel.css'
import './account-card.css'
import { mount } from 'svelte'
import App from './App.svelte'
import { hintedLocale, paintTheme } from './lib/preferences.svelte'
import { THEME_STORAGE_KEY, parseTheme, resolveTheme } from './lib/theme'

// Paint the remembered theme before the first frame, so a dark-theme user never sees a light flash.
paintTheme(
  resolveTheme(
    parseTheme(localStorage.getItem(THEME_STORAGE_KEY)),
    matchMedia('(prefers-color-scheme: dark)').matches,
  ),
)

// And in the language of the last run, until the settings answer.
document.documentElement.lang = hintedLocale()

const target = document.getElementById('app')
if (!target) throw new Error('#app is missing from index.html')
mount(App, { target })
