import { z } from 'zod'
import { serverTextProblem, type ServerTextProblem } from './server-text'

/**
 * The zod schema of a team-server text, apart from the rules in `server-text.ts`
 * so that the database owner, which applies the rules, loads no schema library.
 */
const MESSAGES: Record<ServerTextProblem, (max: number) => string> = {
  nul: () => 'holds a NUL character, which the team server cannot store',
  surrogate: () => 'holds a broken character (a lone UTF-16 surrogate)',
  too_long: (max) => `is longer than ${max} characters`,
}

/** A string the team server will take as it is (see {@link serverTextProblem}). */
export function serverTextSchema(max: number) {
  return z.string().superRefine((value, ctx) => {
    const problem = serverTextProblem(value, max)
    if (problem) {
      ctx.addIssue({ code: 'custom', message: MESSAGES[problem](max), params: { problem, max } })
    }
  })
}
