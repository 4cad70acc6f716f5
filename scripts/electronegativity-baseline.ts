/** One finding of Electronegativity: the check, the file (relative to `src`) and the line. */
export interface Finding {
  readonly id: string
  readonly file: string
  readonly line: number
}

/**
 * A finding's identity in the baseline: the check and the file, not the
 * line, so an unrelated edit above it does not make a reviewed finding new.
 * A second finding of the same check in the same file is new.
 */
export function findingKey(finding: Pick<Finding, 'id' | 'file'>): string {
  return `${finding.id} ${finding.file.replaceAll('\\', '/')}`
}

/** The findings the reviewed baseline does not cover (counted per check and file). */
export function newFindings(
  found: readonly Finding[],
  reviewed: readonly Pick<Finding, 'id' | 'file'>[],
): Finding[] {
  const allowance = new Map<string, number>()
  for (const finding of reviewed) {
    const key = findingKey(finding)
    allowance.set(key, (allowance.get(key) ?? 0) + 1)
  }
  const fresh: Finding[] = []
  for (const finding of found) {
    const key = findingKey(finding)
    const left = allowance.get(key) ?? 0
    if (left > 0) allowance.set(key, left - 1)
    else fresh.push(finding)
  }
  return fresh
}
