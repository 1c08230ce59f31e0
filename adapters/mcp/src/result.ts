import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { isProblem } from '@workgraph/core'
import { argumentPointers } from './argument-pointers.ts'

/**
 * A tool's answer as compact JSON text, which models read, and, when it is an object, the same as
 * `structuredContent` for hosts that read fields (MCP 2025-06-18 and later; the text stays for
 * clients of earlier revisions).
 */
export function toolResult(value: unknown): CallToolResult {
  const text = JSON.stringify(value)
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value)
  return {
    content: [{ type: 'text', text }],
    ...(structured ? { structuredContent: value as Record<string, unknown> } : {}),
  }
}

/**
 * A failure the model can act on: the problem code, what went wrong, and for names the candidates
 * to choose from. Anything that is not a problem is reported without internals.
 */
export function toolError(
  error: unknown,
  onError?: (error: unknown) => void,
  args: Record<string, unknown> = {},
): CallToolResult {
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
  const { code, status, message, extensions } = error
  const errors = argumentPointers(error.errors, code, extensions.name, args)
  // Which argument, as a name the caller can act on: `team`, `labels/1`.
  const argument = errors?.[0]?.pointer.startsWith('/arguments/')
    ? errors[0].pointer.slice('/arguments/'.length)
    : undefined
  return {
    isError: true,
    content: [
      {
        type: 'text',
        text: JSON.stringify({
          code,
          status,
          detail:
            argument && extensions.name !== undefined ? `${message} (argument \`${argument}\`)` : message,
          ...(errors ? { errors } : {}),
          ...(argument ? { argument } : {}),
          ...extensions,
        }),
      },
    ],
  }
}
