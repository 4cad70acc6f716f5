import { readFileSync } from 'node:fs'
import { ESLint } from 'eslint'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { importGraph } from '../../support/import-graph'

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
    // Fences inside core.
    ['src/core/api/x.ts', "import { transaction } from '../store/schema/database'"],
    ['src/core/api/x.ts', "import type { PagedResource } from '../store/record-types'"],
    ['src/core/api/deep/x.ts', "import type { StoreClient } from '../../owner/store-owner'"],
    ['src/core/sync/x.ts', "import { writePageBatch } from '../store/write/page-writer'"],
    ['src/core/sync/x.ts', "import type { StoreConnection } from '../store/connection'"],
    ['src/core/sync/page-thread/x.ts', "import { openStore } from '../../store/schema/database'"],
    ['src/core/live/x.ts', "export { MIGRATIONS } from '../store/schema/migrations'"],
    ['src/core/x.ts', "import { MIGRATIONS } from './store/schema/migrations'"],
    ['src/core/store/queries/x.ts', "import { MIGRATIONS } from '../schema/migrations/index'"],
    ['src/core/owner/x.ts', "import type { M } from '../store/schema/migrations/0007-counts'"],
    ['src/core/threads/x.ts', "import type { StoreClient } from '../owner/store-owner'"],
    ['src/core/threads/x.ts', "import { parsePageBody } from '../sync/page-thread/worker'"],
    ['src/core/threads/x.ts', "import type { ImageCache } from '../images/image-cache'"],
    ['src/core/store/x.ts', "import type { TeamLocalSide } from '../team/local-side'"],
    ['src/core/store/queries/x.ts', "import { listCsv } from '../../export/list-csv'"],
    ['src/core/store/schema/x.ts', "import type { TeamEvent } from '../../team/events'"],
    ['src/core/owner/x.ts', "import type { SetAsideEntry } from '../team/local-side'"],
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
    ['src/core/api/x.ts', "import { redact } from '../redact'"],
    ['src/core/sync/x.ts', "import type { StoreClient } from '../owner/store-owner'"],
    ['src/core/sync/x.ts', "import type { PagedResource } from '../store/record-types'"],
    ['src/core/sync/x.ts', "import type { SyncStateRow } from '../store/sync-state'"],
    ['src/core/sync/x.ts', "import type { SyncMark } from '../store/write/page-write'"],
    ['src/core/sync/page-thread/x.ts', "import { encodeRows } from '../../store/write/row-format'"],
    ['src/core/store/schema/x.ts', "import { MIGRATIONS } from './migrations'"],
    ['src/core/store/schema/x.ts', "import { M } from './migrations/0007-counts'"],
    ['src/core/threads/x.ts', "import { AppError } from '../app-error'"],
    ['src/core/threads/x.ts', "import { movable } from './transfer'"],
    ['src/core/threads/x.ts', "import type { ErrorData } from '../../shared/errors'"],
    ['src/core/store/x.ts', "import type { TeamEvent } from './team-events'"],
    ['src/core/store/queries/x.ts', "import { teamIdentity } from '../team-side'"],
    ['src/core/team/x.ts', "import type { TeamEvent } from '../store/team-events'"],
    ['src/core/owner/x.ts', "import type { ListExport } from '../export/list-csv'"],
  ])('%s may `%s`', async (filePath, code) => {
    expect(await importErrors(filePath, `${code}\nexport const used = 1\n`)).toEqual([])
  })

  it('every import() in src/core keeps the rules its file has', async () => {
    const lazy = [...importGraph(process.cwd(), ['src/core']).keys()].flatMap((file) => {
      const text = readFileSync(file, 'utf8')
      const info = ts.preProcessFile(text, true, true)
      return info.importedFiles
        .filter(({ pos }) => /import\(\s*['"]?$/.test(text.slice(Math.max(0, pos - 12), pos)))
        .map(({ fileName }) => [file, fileName] as const)
    })
    expect(lazy.length).toBeGreaterThan(0)
    for (const [file, specifier] of lazy) {
      const errors = await importErrors(file, `import '${specifier}'\n`)
      expect(errors, `${file}: import('${specifier}')`).toEqual([])
    }
  })
})
