import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isProblem } from '@workgraph/core'

/** A tool's answer as compact JSON text: models read it, and it stays small. */
export function toolResult(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value) }] }
}

/**
 * A failure the model can act on: the problem code, what went wrong, and for names the candidates
 * to choose from. Anything that is not a problem is reported without internals.
 */
export function toolError(error: unknown, onError?: (error: unknown) => void): CallToolResult {
  if (!isProblem(error)) {
    onError?.(error)
    return {
      isError: true,
      content: [
        {
          type: 'text',
          text: JSON.stringify({ code: 'internal_error', detail: 'An unexpected error occurred.' }),
        },
      ],
    }
  }
  const { code, status, message, errors, extensions } = error
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: JSON.stringify({ code, status, detail: message, ...(errors ? { errors } : {}), ...extensions }),
      },
    ],
  }
}
