import type { Tool } from '@modelcontextprotocol/sdk/types.js'
import { TOOLS } from './index.ts'
import type { ToolDefinition } from './types.ts'

/** The `tools/list` answer: every tool as hosts read it. */
export function listTools(): Tool[] {
  return TOOLS.map(describeTool)
}

function describeTool(tool: ToolDefinition): Tool {
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: wireSchema(tool.input) as Tool['inputSchema'],
    ...(tool.output ? { outputSchema: wireSchema(tool.output) as Tool['outputSchema'] } : {}),
    annotations: annotationsOf(tool),
  }
}

/**
 * The hints, leaving out what the defaults say: a read-only tool's destructive and idempotent hints
 * mean nothing (MCP: "meaningful only when readOnlyHint is false"), a write is destructive and not
 * idempotent unless it says otherwise. None of the tools reach outside this server.
 */
function annotationsOf(tool: ToolDefinition): Tool['annotations'] {
  if (tool.readOnly) return { readOnlyHint: true, openWorldHint: false }
  return {
    ...(tool.destructive ? {} : { destructiveHint: false }),
    ...(tool.idempotent ? { idempotentHint: true } : {}),
    openWorldHint: false,
  }
}

/**
 * Bounds a model never needs to read before calling: the server still checks every one of them
 * (against the full schema) and answers a breach with the argument's pointer. Leaving them out of
 * `tools/list` keeps the list a host loads into every conversation small.
 */
const CHECKED_ON_CALL = new Set([
  '$id',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'pattern',
  'examples',
  'additionalProperties',
  // The id's type, for generated clients: the example beside it shows a model the id's shape.
  'x-id-brand',
])

/**
 * Descriptions that say no more than the property's name, its `format` and the server's
 * instructions (how things are named, what null does to a reference).
 */
const SELF_EVIDENT = new Set([
  'Markdown.',
  'A calendar date, `YYYY-MM-DD`.',
  'null unassigns.',
  'Project name or id.',
  'Program name or id.',
  'Agent name or id.',
  'An approval request id.',
  'An agent session id.',
  'The title.',
  'The task title.',
  'The workspace name.',
  'The project name.',
  'The program name.',
  'The initiative name.',
  'Only unread notifications.',
  'Notifications to mark read.',
  'Notifications to mark unread.',
])

/**
 * JSON Schema as hosts read it: no TypeBox symbols, no nested `$id`, no bounds checked on call, and
 * no `type: "string"` beside an `enum` of strings (the values say it).
 */
export function wireSchema(schema: object): object {
  return JSON.parse(JSON.stringify(schema), (key, value) => {
    if (CHECKED_ON_CALL.has(key) && typeof value !== 'object') return undefined
    if (key === 'description' && SELF_EVIDENT.has(value)) return undefined
    if (value?.type === 'string' && Array.isArray(value.enum)) {
      const { type: _string, ...rest } = value
      return rest
    }
    return value
  })
}
