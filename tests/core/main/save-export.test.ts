import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createSaveWithDialog } from '../../../src/main/save-export'

/** Exports written by main after the save dialog (a fake dialog answering a temp path). */
const dir = mkdtempSync(join(tmpdir(), 'ad-export-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('exported files', () => {
  it('are readable by their owner only, new or replacing another file', async () => {
    const fresh = join(dir, 'inspections.csv')
    const existing = join(dir, 'old.csv')
    writeFileSync(existing, 'old', { mode: 0o644 })
    for (const path of [fresh, existing]) {
      const save = createSaveWithDialog(() => Promise.resolve({ canceled: false, filePath: path }))
      expect(await save('inspections.csv', new TextEncoder().encode('a,b\n'))).toBe(path)
      expect(readFileSync(path, 'utf8')).toBe('a,b\n')
      expect(statSync(path).mode & 0o777).toBe(0o600)
    }
  })

  it('writes nothing when the dialog is cancelled', async () => {
    const save = createSaveWithDialog(() => Promise.resolve({ canceled: true, filePath: '' }))
    expect(await save('x.csv', new TextEncoder().encode('a'))).toBeNull()
  })

  it("offers the filter of the file's type: a workbook or CSV", async () => {
    const asked: string[][] = []
    const save = createSaveWithDialog((options) => {
      asked.push(options.filters?.flatMap((f) => f.extensions) ?? [])
      return Promise.resolve({ canceled: true, filePath: '' })
    })
    await save('inspections.xlsx', new Uint8Array([0x50, 0x4b]))
    await save('inspections.csv', new Uint8Array([0x61]))
    expect(asked).toEqual([['xlsx'], ['csv']])
  })
})
