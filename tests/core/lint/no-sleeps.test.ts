import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * Tests wait for events or fake time, never a fixed sleep of 10 ms or more
 * (README.md). This finds the sleep-shaped waits: a promise
 * resolved by a timer, Playwright's `waitForTimeout`, a `sleep(n)`.
 */
const SLEEPS = [
  /setTimeout\(\s*[A-Za-z_$][\w$]*\s*,\s*([\d_]+)\s*\)/g,
  /waitForTimeout\(\s*([\d_]+)\s*\)/g,
  /\bsleep\(\s*([\d_]+)\s*[,)]/g,
]

/** Each fixed sleep of 10 ms or more in `text`, as `line: code`. */
function fixedSleeps(text: string): string[] {
  const found: string[] = []
  for (const pattern of SLEEPS) {
    for (const match of text.matchAll(pattern)) {
      if (Number(match[1]!.replaceAll('_', '')) < 10) continue
      const line = text.slice(0, match.index).split('\n').length
      found.push(`${line}: ${match[0]}`)
    }
  }
  return found
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return files(path)
    return /\.ts$/.test(name) ? [path] : []
  })
}

describe('fixed sleeps in tests', () => {
  it('finds a timer-resolved promise, waitForTimeout and sleep of 10 ms or more', () => {
    expect(
      fixedSleeps(
        [
          'await new Promise((resolve) => setTimeout(resolve, 100))',
          'await new Promise((r) => setTimeout(r, 1_000))',
          'await page.waitForTimeout(800)',
          'await sleep(30)',
          'await new Promise((resolve) => setTimeout(resolve, 0))',
          'await new Promise((resolve) => setTimeout(resolve, delayMs))',
          'await clock.sleep(5)',
        ].join('\n'),
      ),
    ).toEqual([
      '1: setTimeout(resolve, 100)',
      '2: setTimeout(r, 1_000)',
      '3: waitForTimeout(800)',
      '4: sleep(30)',
    ])
  })

  it('tests/ has none', () => {
    // This file's samples are the one exception.
    const scanned = files('tests').filter((file) => !file.endsWith('no-sleeps.test.ts'))
    const found = scanned.flatMap((file) =>
      fixedSleeps(readFileSync(file, 'utf8')).map((sleep) => `${file}:${sleep}`),
    )
    expect(found).toEqual([])
  })
})
