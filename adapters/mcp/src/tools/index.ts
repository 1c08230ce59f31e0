import { agentTools } from './agents.ts'
import { commentTools } from './comments.ts'
import { cycleTools } from './cycles.ts'
import { labelTools } from './labels.ts'
import { organizeTool } from './organize.ts'
import { taskExtraTools } from './task-extras.ts'
import { taskTools } from './tasks.ts'
import type { ToolDefinition } from './types.ts'
import { workTools } from './work.ts'
import { workspaceTools } from './workspace.ts'

/**
 * The curated tool set, in the order hosts list it. A new resource adds its tools here (each maps
 * to catalogue operations and runs them through `engine.execute`).
 */
export const TOOLS: readonly ToolDefinition[] = [
  ...workspaceTools,
  ...taskTools,
  ...workTools,
  ...commentTools,
  ...taskExtraTools,
  ...cycleTools,
  ...labelTools,
  organizeTool,
  ...agentTools,
]

const seen = new Set<string>()
for (const tool of TOOLS) {
  if (seen.has(tool.name) || !/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name))
    throw new Error(`Bad tool name ${tool.name}`)
  seen.add(tool.name)
}
