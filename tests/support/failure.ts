/** What `pending` rejects with; fails the test when it resolves instead. */
export async function failure(pending: Promise<unknown>): Promise<unknown> {
  try {
    await pending
  } catch (error) {
    return error
  }
  throw new Error('expected a failure')
}
