import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import ts from 'typescript'

/** One file's relative imports resolved to files under the walked folder (paths relative to the repository root). */
export type ImportGraph = Map<string, string[]>

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return /\.ts$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier.replace(/\.js$/, ''))
  for (const candidate of [
    `${base}.ts`,
    join(base, 'index.ts'),
    resolve(dirname(from), specifier),
  ]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate
  }
  return undefined
}

/**
 * Every `.ts` file under `dirs` with what it imports: `import`, `import type`, `export … from` and
 * `import()`, relative specifiers only (packages and `node:` modules are no edge). Paths are
 * relative to `root`.
 */
export function importGraph(root: string, dirs: string[]): ImportGraph {
  const graph: ImportGraph = new Map()
  for (const file of dirs.flatMap((dir) => sourceFiles(resolve(root, dir)))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    const targets = new Set<string>()
    for (const { fileName } of info.importedFiles) {
      if (!fileName.startsWith('.')) continue
      const target = resolveSpecifier(file, fileName)
      if (target) targets.add(relative(root, target))
    }
    graph.set(relative(root, file), [...targets].sort())
  }
  return graph
}

/** The strongly connected components with more than one file (or a file importing itself): each is an import cycle. */
export function importCycles(graph: ImportGraph): string[][] {
  let index = 0
  const indexOf = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (file: string): void => {
    indexOf.set(file, index)
    low.set(file, index)
    index++
    stack.push(file)
    onStack.add(file)
    for (const next of graph.get(file) ?? []) {
      if (!indexOf.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, indexOf.get(next)!))
      }
    }
    if (low.get(file) === indexOf.get(file)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1 || (graph.get(file) ?? []).includes(file)) {
        cycles.push(component.sort())
      }
    }
  }
  for (const file of [...graph.keys()].sort()) if (!indexOf.has(file)) visit(file)
  return cycles
}
