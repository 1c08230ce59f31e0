import * as oauth from 'oauth4webapi'
import { CliError } from '../errors.ts'
import { log } from '../output.ts'

export const serverArg = {
  type: 'string',
  description: 'The workgraph server (default: WORKGRAPH_SERVER, the last login, or http://localhost:3000)',
} as const

/** Runs a command body; a failure the person can act on prints one line and exits 1, others with a stack. */
export function guarded<T>(run: (context: T) => Promise<void>): (context: T) => Promise<void> {
  return async (context) => {
    try {
      await run(context)
    } catch (error) {
      if (error instanceof CliError) log.error(error.message)
      else if (error instanceof oauth.ResponseBodyError)
        log.error(`The server answered ${error.status} ${error.error}: ${error.error_description ?? ''}`)
      else log.error(error)
      process.exitCode = 1
    }
  }
}
