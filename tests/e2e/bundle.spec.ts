import { test, expect } from '@playwright/test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

/** Checks of the build output that `npm test` produces before the e2e suite runs. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  )
}

test('the preload is CommonJS and requires only electron', () => {
  const preload = readFileSync('out/preload/index.cjs', 'utf8')
  expect(preload).toMatch(/require\("electron"\)/)
  expect(preload).not.toMatch(/^\s*import\s/m)
  expect(preload).not.toMatch(/^\s*export\s/m)
  const requires = [...preload.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1])
  expect(new Set(requires)).toEqual(new Set(['electron']))
})

/**
 * The web host's own sentences: string literals of src/web-host of three
 * words or more (its request guards' answers, its start-up errors) that no
 * other file under src holds. Taken from the source, so renaming or moving
 * a function leaves them as they are; any of them in a bundle means web
 * host code went into it.
 */
function webHostSentences(): string[] {
  const found = new Set<string>()
  for (const file of filesUnder('src/web-host')) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return
      if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
        const text = node.text.trim()
        // Plain ASCII without quotes or escapes reads the same in the bundle as in the source.
        if (/^[\x20-\x7e]+$/.test(text) && !/["'`\\]/.test(text) && text.split(/\s+/).length >= 3) {
          found.add(text)
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(source)
  }
  const elsewhere = filesUnder('src')
    .filter((file) => !file.startsWith(join('src', 'web-host')))
    .map((file) => readFileSync(file, 'utf8'))
  return [...found].filter((text) => !elsewhere.some((other) => other.includes(text)))
}

test('the packaged bundles contain no web host (docs/faults.md F48)', () => {
  const sentences = webHostSentences()
  // The probe itself: the web host keeps answering in its own words.
  expect(sentences.length).toBeGreaterThanOrEqual(5)
  for (const file of filesUnder('out').filter((name) => /\.(c?js|mjs)$/.test(name))) {
    const text = readFileSync(file, 'utf8')
    expect(
      sentences.filter((sentence) => text.includes(sentence)),
      file,
    ).toEqual([])
  }
  // The renderer carries the small HTTP shim it uses when no preload exists; main never serves it.
  for (const file of filesUnder('out/main')) {
    expect(readFileSync(file, 'utf8'), file).not.toContain('x-app-token')
  }
})
