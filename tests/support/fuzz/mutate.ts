import fc from 'fast-check'

/**
 * Mutations of valid arguments, the way a compromised page or a broken
 * caller could send them over IPC (structured clone keeps own `__proto__`
 * keys, dates, maps, big integers) or to the web host (JSON).
 */

/** Nested arrays and objects `depth` levels deep, built without recursion. */
export function deepNesting(depth: number, leaf: unknown = 'x'): unknown {
  let value: unknown = leaf
  for (let level = 0; level < depth; level += 1) {
    value = level % 2 === 0 ? [value] : { a: value }
  }
  return value
}

/** Sets an own, enumerable property even for `__proto__` (as JSON.parse and structured clone do). */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  })
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']

/** Strings that break naive code: NUL, lone surrogates, text-direction marks, paths, SQL, format strings. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\0',
  'a\0b',
  '\uD800',
  '\uDFFF',
  'x\uDC00\uD800y',
  '\u202Eevil',
  '\r\n',
  '../../../../etc/passwd',
  "'; DROP TABLE inspections; --",
  '" OR 1=1 --',
  '%s%n%x',
  '${constructor}',
  '<script>alert(1)</script>',
  'NaN',
  '-1',
  '1e400',
  '\uFEFF',
  'ㄱㄴㄷ',
  '*',
  '"',
  'NEAR(a b)',
]

/** One hostile value: a wrong type, a huge, empty or nasty string, an odd number, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null,
    undefined,
    true,
    false,
    0,
    -1,
    1.5,
    Number.NaN,
    Infinity,
    -Infinity,
    -0,
    2 ** 53,
    -(2 ** 53),
    1e308,
    [],
    {},
    [null],
  ),
  fc.constantFrom(...NASTY_STRINGS),
  fc.bigInt(),
  fc.date({ noInvalidDate: false }),
  // Huge strings: past every field's limit, some past the router's size cap.
  fc
    .tuple(fc.integer({ min: 201, max: 70_000 }), fc.constantFrom('x', '가', '\0', '\uD800', 'é'))
    .map(([n, unit]) => unit.repeat(n)),
  fc.integer({ min: 2, max: 20_000 }).map((depth) => deepNesting(depth)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constant(new Map([['a', 1]])),
  fc.constant(new Uint8Array([0, 255])),
  fc.anything({ maxDepth: 3, withBigInt: true, withDate: true, withNullPrototype: true }),
)

/** What one mutation does, and where. */
type Mutation =
  | { readonly op: 'replace'; readonly at: number; readonly value: unknown }
  | { readonly op: 'delete'; readonly at: number }
  | { readonly op: 'extraKey'; readonly at: number; readonly key: string; readonly value: unknown }
  | { readonly op: 'whole'; readonly value: unknown }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('replace' as const),
      at: fc.nat(),
      value: hostileValue,
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 3,
    arbitrary: fc.record({
      op: fc.constant('extraKey' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.string({ maxLength: 12 })),
      value: fc.oneof(hostileValue, fc.constant({ polluted: 'yes' })),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('whole' as const), value: hostileValue }) },
)

/** Mutations to apply in order (one to three). */
export const mutations: fc.Arbitrary<readonly Mutation[]> = fc.array(mutation, {
  minLength: 1,
  maxLength: 3,
})

type Container = Record<string, unknown> | unknown[]

/** Every object and array in `root`, with the keys they hold (no cycles: values are generated trees). */
function containers(root: unknown): Container[] {
  const found: Container[] = []
  const stack: unknown[] = [root]
  while (stack.length > 0 && found.length < 200) {
    const value = stack.pop()
    if (typeof value !== 'object' || value === null) continue
    if (!Array.isArray(value) && Object.getPrototypeOf(value) !== Object.prototype) continue
    found.push(value as Container)
    for (const child of Object.values(value)) stack.push(child)
  }
  return found
}

/** `args` (a fresh copy, never changed) with `list` applied. */
export function applyMutations(args: unknown, list: readonly Mutation[]): unknown {
  let root = structuredClone(args)
  for (const m of list) {
    if (m.op === 'whole') {
      root = m.value
      continue
    }
    const places = containers(root)
    const target = places[m.at % Math.max(1, places.length)]
    if (target === undefined) {
      root = m.op === 'replace' ? m.value : root
      continue
    }
    const keys = Object.keys(target)
    const key = keys[m.at % Math.max(1, keys.length)]
    if (m.op === 'extraKey') {
      setOwn(target, Array.isArray(target) ? String(keys.length + (m.at % 3)) : m.key, m.value)
    } else if (key !== undefined) {
      if (m.op === 'delete') {
        if (Array.isArray(target)) target.splice(Number(key), 1)
        else delete target[key]
      } else setOwn(target, key, m.value)
    }
  }
  return root
}
