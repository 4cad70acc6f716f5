import { describe, expect, it } from 'vitest'
import { OneAtATime } from '../../src/renderer/src/lib/list-query.svelte'

/** A call the test answers by hand. */
function deferred() {
  let answer!: (value: string) => void
  let fail!: (error: Error) => void
  const promise = new Promise<string>((resolve, reject) => {
    answer = resolve
    fail = reject
  })
  return { promise, answer, fail }
}

describe("a list's queries, one at a time", () => {
  it('sends a query at once, in the same task, when none is on its way', () => {
    const queue = new OneAtATime()
    const sent: string[] = []
    void queue.send(new AbortController().signal, () => {
      sent.push('a')
      return deferred().promise
    })
    expect(sent).toEqual(['a'])
  })

  it('holds a query while another is on its way, and drops it if it was given up meanwhile', async () => {
    const queue = new OneAtATime()
    const sent: string[] = []
    const first = deferred()
    const a = queue.send(new AbortController().signal, () => (sent.push('a'), first.promise))
    const dropped = new AbortController()
    const b = queue.send(dropped.signal, () => (sent.push('b'), Promise.resolve('b')))
    const c = queue.send(new AbortController().signal, () => (sent.push('c'), Promise.resolve('c')))
    dropped.abort()
    await Promise.resolve()
    expect(sent).toEqual(['a'])
    first.answer('a')
    await expect(a).resolves.toBe('a')
    await expect(b).rejects.toThrow()
    await expect(c).resolves.toBe('c')
    expect(sent).toEqual(['a', 'c'])
  })

  it('sends the next query after a failed one, and at once again once all have settled', async () => {
    const queue = new OneAtATime()
    const sent: string[] = []
    const first = deferred()
    const a = queue.send(new AbortController().signal, () => (sent.push('a'), first.promise))
    const b = queue.send(new AbortController().signal, () => (sent.push('b'), Promise.resolve('b')))
    first.fail(new Error('store closed'))
    await expect(a).rejects.toThrow('store closed')
    await expect(b).resolves.toBe('b')
    await new Promise((resolve) => setTimeout(resolve, 0))
    void queue.send(new AbortController().signal, () => (sent.push('c'), deferred().promise))
    expect(sent).toEqual(['a', 'b', 'c'])
  })
})
