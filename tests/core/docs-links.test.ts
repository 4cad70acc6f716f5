import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')

/** The project's own documents: the README and everything under docs/. */
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]

/** Relative targets of Markdown links (`[text](target)`), without anchors; web links left out. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!.split('#')[0]!)
    .filter((target) => target !== '' && !/^[a-z]+:/i.test(target))
}

/** Generated, not in git: `npm run i18n` and `npm run bench` write them. */
const GENERATED = ['src/shared/messages/', 'bench/results.json']

/** Files of the project a document names in code spans (`src/core/app.ts`), patterns left out. */
function namedFiles(markdown: string): string[] {
  return [...markdown.matchAll(/`((?:src|tests|bench|scripts|docs)\/[\w./-]+)`/g)]
    .map((match) => match[1]!)
    .filter((path) => !GENERATED.some((generated) => path.startsWith(generated)))
}

describe('documentation links', () => {
  it.each(DOCS)('%s links only to files a clone of the project has', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    for (const target of relativeLinks(text)) {
      const path = resolve(dirname(join(ROOT, doc)), target)
      expect(path.startsWith(ROOT + '/'), `${doc} → ${target} leaves the project`).toBe(true)
      expect(existsSync(path), `${doc} → ${target}`).toBe(true)
    }
    expect(text).not.toMatch(/\.\.\/shared\/(spec|design)|\bdesign\/[A-Z]/)
  })

  it.each(DOCS)('%s names only files the project has', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    for (const path of namedFiles(text)) {
      expect(existsSync(join(ROOT, path)), `${doc} names ${path}`).toBe(true)
    }
  })

  it.each(DOCS)('%s names only code identifiers the project or its platform has', (doc) => {
    const text = readFileSync(join(ROOT, doc), 'utf8')
    const missing = namedIdentifiers(text).filter((name) => !knownName(name))
    expect(missing, `${doc} names code that does not exist`).toEqual([])
  })

  it('the partner API spec the project follows is inside the project, with where it comes from', () => {
    const spec = readFileSync(join(ROOT, 'docs/partner-api.md'), 'utf8')
    expect(spec).toMatch(/^<!--[\s\S]*Source:[\s\S]*-->/)
    expect(spec).toContain('# Partner Guarantee and Inspection Service Interface')
  })
})

/**
 * Names of code a document writes in backticks (`openRecord`, `WRITE_BATCH_MS`,
 * `ActiveProfile.staticUrl`, `ignore_page`): every dotted part that looks like
 * an identifier of code (a lower-then-upper hump, an inner capital, or an
 * underscore), so a renamed function, constant or fault name fails here.
 * Plain words (`raw`, `status`) are left out: they read as English too.
 */
export function namedIdentifiers(markdown: string): string[] {
  const names: string[] = []
  for (const match of markdown.matchAll(/`([^`\n]+)`/g)) {
    const parts = match[1]!.replace(/\(\)$/, '').split('.')
    if (!parts.every((part) => /^[A-Za-z_$][\w$]*$/.test(part))) continue
    names.push(...parts.filter((part) => /[a-z][A-Z]|^[A-Z][a-z]+[A-Z]|_/.test(part)))
  }
  return names
}

/** Files whose words count as existing names: the project's code, and the platform it names (Electron, Node, the DOM, electron-builder's settings). */
function wordFiles(): string[] {
  const own = ['src', 'tests', 'bench', 'scripts', 'team-server', 'messages', '.ci'].flatMap(
    (dir) =>
      existsSync(join(ROOT, dir))
        ? readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
            .filter(
              (entry) => entry.isFile() && /\.(ts|svelte|js|mjs|cjs|sql|json|sh)$/.test(entry.name),
            )
            .map((entry) => join(entry.parentPath, entry.name))
        : [],
  )
  const top = readdirSync(ROOT)
    .filter((name) => /\.(ts|js|json|yml)$/.test(name))
    .map((name) => join(ROOT, name))
  const modules = join(ROOT, 'node_modules')
  const platform = [
    join(modules, 'electron/electron.d.ts'),
    ...readdirSync(join(modules, '@types/node'))
      .filter((name) => name.endsWith('.d.ts'))
      .map((name) => join(modules, '@types/node', name)),
    ...readdirSync(join(modules, 'typescript/lib'))
      .filter((name) => /^lib\.(dom|es20\d\d(\.\w+)?)\.d\.ts$/.test(name))
      .map((name) => join(modules, 'typescript/lib', name)),
    ...readdirSync(join(modules, 'app-builder-lib/out'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && /\.(js|d\.ts)$/.test(entry.name))
      .map((entry) => join(entry.parentPath, entry.name)),
  ]
  return [...own, ...top, ...platform]
}

let WORDS: Set<string> | undefined

/** A name some file of the project or its platform holds as a word; a bench key with a size suffix (`_1m`) by its stem. */
function knownName(name: string): boolean {
  WORDS ??= new Set(
    wordFiles().flatMap((file) => readFileSync(file, 'utf8').match(/[A-Za-z_$][\w]*/g) ?? []),
  )
  if (WORDS.has(name)) return true
  const stem = /^(\w+_)\d+[km]$/.exec(name)
  return stem !== null && WORDS.has(stem[1]!)
}

/** Every source and test file, the generated messages left out. */
function codeFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|svelte|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)))
    .filter((path) => !path.startsWith('src/shared/messages/'))
}

const CODE = [
  ...codeFiles('src'),
  ...codeFiles('tests'),
  ...codeFiles('bench'),
  ...codeFiles('scripts'),
]

/** The row ids (`F13`) of the table in docs/faults.md. */
const FAULT_ROWS = new Set(
  [...readFileSync(join(ROOT, 'docs/faults.md'), 'utf8').matchAll(/^\| (F\d+) +\|/gm)].map(
    (match) => match[1]!,
  ),
)

/** `docs/…` paths a file cites (web addresses such as `…/docs/latest` left out). */
export function citedDocs(text: string): string[] {
  return [...text.matchAll(/(?<![\w./-])docs\/[\w.-]+(?:\/[\w.-]+)*/g)].map((match) =>
    match[0].replace(/\.+$/, ''),
  )
}

/** Rows a file cites as `docs/faults.md F13`, `docs/faults.md F43–F48` or `docs/faults.md F23, F29`. */
export function citedFaults(text: string): string[] {
  const rows: string[] = []
  for (const match of text.matchAll(/docs\/faults\.md((?:(?:,|,? and|–|-)? ?F\d+)+)/g)) {
    const [, list] = match
    for (const range of list!.matchAll(/F(\d+)(?:[–-]F(\d+))?/g)) {
      const from = Number(range[1])
      const to = range[2] === undefined ? from : Number(range[2])
      for (let row = from; row <= to; row++) rows.push(`F${row}`)
    }
  }
  return rows
}

/** References a clone cannot follow: the old matrix's numbering, issue numbers, the design folder. */
const STALE =
  /\bFAULTS\b|\b[Ii]ssues? \d|\bdesign\/[A-Z]|\.\.\/shared\/(?:spec|design)|\b[Rr]ows? \d+:/

describe('references in src/ and tests/', () => {
  it('finds the files and the rows it checks', () => {
    expect(CODE).toContain('src/core/app.ts')
    expect(CODE).toContain('tests/core/docs-links.test.ts')
    expect(FAULT_ROWS).toContain('F1')
    expect(FAULT_ROWS).toContain('F48')
    expect(citedFaults('(docs/faults.md F43–F45, F48 and F2)')).toEqual([
      'F43',
      'F44',
      'F45',
      'F48',
      'F2',
    ])
    expect(
      citedDocs(
        'see docs/faults.md F13, https://www.electronjs.org/docs/latest and docs/security.md.',
      ),
    ).toEqual(['docs/faults.md', 'docs/security.md'])
  })

  it.each(CODE)('%s cites only docs that exist, and only rows docs/faults.md has', (file) => {
    const text = readFileSync(join(ROOT, file), 'utf8')
    for (const doc of citedDocs(text))
      expect(existsSync(join(ROOT, doc)), `${file} → ${doc}`).toBe(true)
    for (const row of citedFaults(text))
      expect(FAULT_ROWS.has(row), `${file} → docs/faults.md ${row}`).toBe(true)
    const stale = STALE.exec(text)
    expect(stale?.[0], `${file} cites something a clone does not have`).toBeUndefined()
  })
})
