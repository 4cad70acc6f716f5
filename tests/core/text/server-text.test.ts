import { describe, expect, it } from 'vitest'
import { serverLength, serverTextProblem, toServerText } from '../../../src/shared/server-text'
import { serverTextSchema } from '../../../src/shared/server-text-schema'

/** Text for the team server is checked as PostgreSQL takes it (docs/team.md "Limits"). */
describe('server text', () => {
  it('counts characters as PostgreSQL does: a surrogate pair is one', () => {
    expect(serverLength('가나다')).toBe(3)
    expect(serverLength('😀😀')).toBe(2)
    expect(serverLength('a\uD800')).toBe(2)
  })

  it('names NUL, a lone surrogate on either side, and length', () => {
    expect(serverTextProblem('a\u0000b', 10)).toBe('nul')
    expect(serverTextProblem('a\uD83D', 10)).toBe('surrogate')
    expect(serverTextProblem('\uDE00a', 10)).toBe('surrogate')
    expect(serverTextProblem('😀'.repeat(10), 10)).toBeNull()
    expect(serverTextProblem('가'.repeat(11), 10)).toBe('too_long')
    expect(serverTextProblem('줄\n바꿈\t탭', 10)).toBeNull()
  })

  it('refuses in a schema with the problem named', () => {
    const result = serverTextSchema(5).safeParse('x\u0000')
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]).toMatchObject({ params: { problem: 'nul', max: 5 } })
    expect(result.error?.issues[0]?.message).toMatch(/NUL/)
  })

  it('makes the app’s own text safe instead of refusing it', () => {
    expect(toServerText('a\u0000b\uD800c', 10)).toBe('ab\uFFFDc')
    expect(toServerText('😀'.repeat(6), 5)).toBe('😀'.repeat(5))
    expect(serverTextProblem(toServerText('x\u0000\uDC00'.repeat(400), 500), 500)).toBeNull()
  })
})
