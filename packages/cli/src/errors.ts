/** A failure the person can act on: printed as one line, without a stack trace. */
export class CliError extends Error {
  override name = 'CliError'
}
