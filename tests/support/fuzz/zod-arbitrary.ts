import fc from 'fast-check'
import type { z } from 'zod'

/**
 * Valid-looking values for a zod schema, as fast-check arbitraries: read from
 * the schema's own definition (types, lengths, bounds, patterns, formats,
 * enums, optional keys), so a channel added to the contract is generated
 * without a line here. Refinements written as functions (an address, a time
 * zone) cannot be read: a value may fail them, and a `hint` may give the
 * field values of its own (known ids, addresses on this computer).
 */

/** Values of its own for the field `key` at `path` (object keys from the root), or undefined. */
export type Hint = (key: string, path: readonly string[]) => fc.Arbitrary<unknown> | undefined

/** Zod's definition of a schema, as far as this reads it. */
interface Def {
  readonly type: string
  readonly [key: string]: unknown
}

/** A check of a string or number schema (`min_length`, `less_than`, `string_format`…). */
interface CheckDef {
  readonly check: string
  readonly minimum?: number
  readonly maximum?: number
  readonly value?: number | bigint
  readonly inclusive?: boolean
  readonly format?: string
  readonly pattern?: RegExp
}

interface Internals {
  readonly def: Def
  readonly optin?: 'optional'
}

function internals(schema: z.ZodType): Internals {
  return (schema as unknown as { _zod: Internals })._zod
}

function checksOf(def: Def): CheckDef[] {
  const checks = (def['checks'] ?? []) as readonly { _zod: { def: CheckDef } }[]
  return checks.map((check) => check._zod.def)
}

/** Longest string generated for an unbounded field: long enough to matter, short enough to be quick. */
const UNBOUNDED_STRING = 60

/** An arbitrary of values the schema (probably) accepts. */
export function arbitraryFor(
  schema: z.ZodType,
  hint: Hint = () => undefined,
  path: readonly string[] = [],
): fc.Arbitrary<unknown> {
  const key = path.at(-1)
  const hinted = key === undefined ? undefined : hint(key, path)
  if (hinted) return hinted
  const def = internals(schema).def
  const inner = (child: unknown, childPath = path) =>
    arbitraryFor(child as z.ZodType, hint, childPath)
  switch (def.type) {
    case 'object': {
      const shape = def['shape'] as Record<string, z.ZodType>
      const fields: Record<string, fc.Arbitrary<unknown>> = {}
      const required: string[] = []
      for (const [name, field] of Object.entries(shape)) {
        fields[name] = inner(field, [...path, name])
        if (internals(field).optin !== 'optional') required.push(name)
      }
      return fc.record(fields, { requiredKeys: required })
    }
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return inner(def['innerType'])
    case 'nullable':
      return fc.oneof(inner(def['innerType']), fc.constant(null))
    case 'pipe':
      return inner(def['in'])
    case 'union':
      return fc.oneof(...(def['options'] as z.ZodType[]).map((option) => inner(option)))
    case 'array': {
      const checks = checksOf(def)
      const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0
      const maxLength = checks.find((c) => c.check === 'max_length')?.maximum ?? minLength + 5
      return fc.array(inner(def['element']), {
        minLength,
        maxLength: Math.min(maxLength, minLength + 5),
      })
    }
    case 'enum':
      return fc.constantFrom(...Object.values(def['entries'] as Record<string, string | number>))
    case 'literal':
      return fc.constantFrom(...(def['values'] as unknown[]))
    case 'boolean':
      return fc.boolean()
    case 'string':
      return stringFor(def)
    case 'number':
      return numberFor(def)
    case 'null':
      return fc.constant(null)
    default:
      // custom, unknown, any…: whatever JSON can carry.
      return fc.jsonValue({ maxDepth: 2 })
  }
}

function stringFor(def: Def): fc.Arbitrary<string> {
  const checks = checksOf(def)
  const minLength = checks.find((c) => c.check === 'min_length')?.minimum ?? 0
  const maxLength = checks.find((c) => c.check === 'max_length')?.maximum ?? Infinity
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength
  const pattern = (def['pattern'] as RegExp | undefined) ?? checks.find((c) => c.pattern)?.pattern
  switch (def['format']) {
    case 'uuid':
    case 'guid':
      return fc.uuid()
    case 'url':
      return fc.webUrl().filter(fits)
  }
  if (pattern) return fc.stringMatching(pattern).filter(fits)
  const max = Math.min(maxLength, Math.max(minLength, UNBOUNDED_STRING))
  const text = (unit: 'grapheme' | 'grapheme-ascii') =>
    fc.string({ unit, minLength, maxLength: max }).filter(fits)
  // Mostly readable text, some of any script; now and then exactly as long as allowed.
  return fc.oneof(
    { weight: 4, arbitrary: text('grapheme-ascii') },
    { weight: 2, arbitrary: text('grapheme') },
    {
      weight: 1,
      arbitrary: fc.constant(
        Number.isFinite(maxLength) ? '가'.repeat(maxLength) : '가'.repeat(300),
      ),
    },
  )
}

function numberFor(def: Def): fc.Arbitrary<number> {
  const checks = checksOf(def)
  const integer = checks.some((c) => c.check === 'number_format' && /int/.test(c.format ?? ''))
  const above = checks.find((c) => c.check === 'greater_than')
  const below = checks.find((c) => c.check === 'less_than')
  const lowest = above ? Number(above.value) + (above.inclusive ? 0 : integer ? 1 : 1e-9) : -1e9
  const highest = below ? Number(below.value) - (below.inclusive ? 0 : integer ? 1 : 1e-9) : 1e9
  if (integer) {
    const min = Math.max(Math.ceil(lowest), Number.MIN_SAFE_INTEGER)
    const max = Math.min(Math.floor(highest), Number.MAX_SAFE_INTEGER)
    // Small values are the ones that find stored records; the bounds themselves now and then.
    return fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 300) }) },
      { weight: 1, arbitrary: fc.constantFrom(min, max) },
      { weight: 1, arbitrary: fc.maxSafeInteger().filter((n) => n >= min && n <= max) },
    )
  }
  return fc.double({ min: lowest, max: highest, noNaN: true })
}
