import { describe, expect, it } from 'vitest'
import {
  canRun,
  onCommand,
  onCommands,
  runCommand,
} from '../../src/renderer/src/lib/commands.svelte'

describe('running commands in the renderer', () => {
  it('runs the newest handler, reports one that did not apply, and forgets removed ones', () => {
    const calls: string[] = []
    expect(canRun('list.close')).toBe(false)
    expect(runCommand('list.close')).toBe(false)
    const offBelow = onCommand('list.close', () => void calls.push('below'))
    const offAbove = onCommands({ 'list.close': () => false })
    expect(canRun('list.close')).toBe(true)
    // The newest handler answers: it did not apply, so the key goes on as usual.
    expect(runCommand('list.close')).toBe(false)
    offAbove()
    expect(runCommand('list.close')).toBe(true)
    expect(calls).toEqual(['below'])
    offBelow()
    expect(canRun('list.close')).toBe(false)
  })
})
