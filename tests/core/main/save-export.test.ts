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
      expect(await save('inspections.csv', 'a,b\n')).toBe(path)
      expect(readFileSync(path, 'utf8')).toBe('a,b\n')
      expect(statSync(path).mode & 0o777).toBe(0o600)
    }
  })

  it('writes nothing when the dialog is cancelled', async () => {
    const save = createSaveWithDialog(() => Promise.resolve({ canceled: true, filePath: '' }))
    expect(await save('x.csv', 'a')).toBeNull()
  })
})
