import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

/** The import-rule errors of `code` linted as if it were the file at `filePath`. */
async function importErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
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
  ])('%s may `%s`', async (filePath, code) => {
    expect(await importErrors(filePath, `${code}\nexport const used = 1\n`)).toEqual([])
  })
})
