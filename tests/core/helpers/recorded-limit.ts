import { InFlightLimit } from '../../../src/core/api/in-flight'

/** The in-flight limit, with its value after every attempt it was told of (for tests). */
export class RecordedLimit extends InFlightLimit {
  readonly history: number[] = []

  override record(...args: Parameters<InFlightLimit['record']>): void {
    super.record(...args)
    this.history.push(this.limit)
  }
}
