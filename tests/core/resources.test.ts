import { expect, it } from 'vitest'
import { PAGED_RESOURCES, isPagedResource } from '../../src/shared/resources'

it('isPagedResource names the two paged lists and nothing else that arrives as text', () => {
  for (const resource of PAGED_RESOURCES) expect(isPagedResource(resource)).toBe(true)
  for (const other of ['brands', 'Inspections', 'guarantee', '', '__proto__', 'toString', 'length'])
    expect(isPagedResource(other)).toBe(false)
  for (const other of [null, undefined, 0, ['inspections'], { resource: 'inspections' }])
    expect(isPagedResource(other)).toBe(false)
})
