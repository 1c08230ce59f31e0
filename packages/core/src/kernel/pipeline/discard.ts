/**
 * Thrown by an operation to roll its whole transaction back and still answer with `body`: a dry run
 * does all the work of a real one, so its report is exactly what the real run would say.
 */
export class DiscardChanges extends Error {
  readonly body: unknown
  constructor(body: unknown) {
    super('The operation asked for its changes to be rolled back.')
    this.name = 'DiscardChanges'
    this.body = body
  }
}
