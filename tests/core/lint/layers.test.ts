import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

/** The import-rule errors of `code` linted as if it were the file at `filePath`. */
async function importErrors(filePath: string, code: string): Promise<string[]> {
  const text = filePath.endsWith('.svelte') ? `<script lang="ts">\n${code}</script>\n` : code
  const [result] = await eslint.lintText(text, { filePath })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message)
}

describe('layer rules in eslint.config.js', () => {
  it.each([
    ['src/core/boot.ts', "import { startSandbox } from '../sandbox'"],
    ['src/core/api/x.ts', "import { dataset } from '../../sandbox/dataset'"],
    ['src/core/x.ts', "import { registerIpc } from '../main/ipc'"],
    ['src/core/store/x.ts', "import type { Api } from '../../renderer/src/lib/api'"],
    ['src/core/x.ts', "import { startWebHost } from '../web-host/server'"],
    ['src/core/x.ts', "import { app } from 'electron'"],
    ['src/shared/x.ts', "import { AppError } from '../core/app-error'"],
    ['src/shared/x.ts', "import { dataset } from '../sandbox/dataset'"],
    ['src/shared/x.ts', "import { readFileSync } from 'node:fs'"],
    ['src/shared/x.ts', "import { ipcRenderer } from 'electron'"],
    ['src/renderer/src/lib/x.ts', "import { createCore } from '../../../core/app'"],
    [
      'src/renderer/src/views/a/X.svelte',
      "import { listCsv } from '../../../../core/export/list-csv'",
    ],
    ['src/renderer/src/x.ts', "import { dataset } from '../../sandbox/dataset'"],
    ['src/renderer/src/lib/x.ts', "import { openLink } from '../../../main/external-links'"],
    ['src/renderer/src/x.ts', "import { readFileSync } from 'node:fs'"],
  ])('%s may not `%s`', async (filePath, code) => {
    const errors = await importErrors(filePath, `${code}\nexport const used = 1\n`)
    expect(errors).toHaveLength(1)
  })

  it.each([
    ['src/core/x.ts', "import { CHANNELS } from '../shared/channels'"],
    ['src/core/api/x.ts', "import { AppError } from '../app-error'"],
    ['src/core/x.ts', "import { readFileSync } from 'node:fs'"],
    ['src/shared/x.ts', "import { CHANNELS } from './channels'"],
    ['src/main/x.ts', "import { startEmbeddedSandbox } from '../sandbox'"],
    ['src/web-host/x.ts', "import { createCore } from '../core/app'"],
    ['src/renderer/src/lib/x.ts', "import { message } from '../../../shared/i18n'"],
    ['src/renderer/src/x.ts', "import { api } from './lib/api'"],
    ['src/renderer/src/views/a/X.svelte', "import { THEMES } from '../../../../shared/profiles'"],
  ])('%s may `%s`', async (filePath, code) => {
    expect(await importErrors(filePath, `${code}\nexport const used = 1\n`)).toEqual([])
  })
})
