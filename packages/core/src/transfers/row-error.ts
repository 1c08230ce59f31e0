/** A row the import refuses; the others go on. */
export class RowError extends Error {
  constructor(
    message: string,
    readonly field: string | null = null,
  ) {
    super(message)
  }
}
