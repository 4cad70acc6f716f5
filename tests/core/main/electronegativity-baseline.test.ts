import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { findingKey, newFindings } from '../../../scripts/electronegativity-baseline'

describe('the Electronegativity baseline', () => {
  const reviewed = [
    { id: 'PRELOAD_JS_CHECK', file: 'main/window.ts' },
    { id: 'CSP_GLOBAL_CHECK', file: 'main/security.ts' },
  ]

  it('passes reviewed findings even when their line moved', () => {
    expect(
      newFindings(
        [
          { id: 'PRELOAD_JS_CHECK', file: 'main/window.ts', line: 44 },
          { id: 'CSP_GLOBAL_CHECK', file: 'main\\security.ts', line: 3 },
        ],
        reviewed,
      ),
    ).toEqual([])
  })

  it('fails a new finding: another check, another file, or a second one of a reviewed kind', () => {
    const fresh = newFindings(
      [
        { id: 'PRELOAD_JS_CHECK', file: 'main/window.ts', line: 30 },
        { id: 'PRELOAD_JS_CHECK', file: 'main/window.ts', line: 90 },
        { id: 'SANDBOX_JS_CHECK', file: 'main/window.ts', line: 18 },
        { id: 'PRELOAD_JS_CHECK', file: 'main/wallet-window.ts', line: 9 },
      ],
      reviewed,
    )
    expect(fresh.map((f) => `${findingKey(f)}:${f.line}`)).toEqual([
      'PRELOAD_JS_CHECK main/window.ts:90',
      'SANDBOX_JS_CHECK main/window.ts:18',
      'PRELOAD_JS_CHECK main/wallet-window.ts:9',
    ])
  })

  it('gives every reviewed finding a reason', () => {
    const file = JSON.parse(readFileSync('electronegativity-baseline.json', 'utf8')) as {
      findings: { id: string; file: string; reason: string }[]
    }
    expect(file.findings.length).toBeGreaterThan(0)
    for (const finding of file.findings) {
      expect(finding.reason.length, findingKey(finding)).toBeGreaterThan(20)
      expect(finding.reason).not.toMatch(/TODO/)
    }
  })
})
