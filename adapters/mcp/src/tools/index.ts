import { agentTools } from './agents/agents.ts'
import { commentTools } from './comments/comments.ts'
import { connectorTools } from './connectors/link-item.ts'
import { cycleTools } from './cycles/cycles.ts'
import { documentTools } from './documents/documents.ts'
import { customFieldTools } from './fields/set-field.ts'
import { hubTools } from './hub/hub.ts'
import { hubOverviewTools } from './hub/overview.ts'
import { insightTools } from './insights/insights.ts'
import { labelTools } from './labels/labels.ts'
import { awayTools } from './me/away/away.ts'
import { planTools } from './me/plan/plan.ts'
import { workspaceTools } from './orgs/workspace.ts'
import { organizeTool } from './plans/organize.ts'
import { programTools } from './programs/programs.ts'
import { projectTools } from './projects/projects.ts'
import { taskExtraTools } from './tasks/extras.ts'
import { taskTools } from './tasks/tasks.ts'
import { workTools } from './tasks/work.ts'
import { templateTools } from './templates/templates.ts'
import { timeTools } from './time/log-time.ts'
import { importTools } from './transfers/import-status.ts'
import { triageTools } from './triage/triage.ts'
import type { ToolDefinition } from './types.ts'

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
  ...triageTools,
  ...insightTools,
  ...labelTools,
  ...documentTools,
  ...customFieldTools,
  ...templateTools,
  ...timeTools,
  ...projectTools,
  ...programTools,
  organizeTool,
  ...agentTools,
  ...connectorTools,
  ...importTools,
  ...hubTools,
  ...hubOverviewTools,
  ...planTools,
  ...awayTools,
]

const seen = new Set<string>()
for (const tool of TOOLS) {
  if (seen.has(tool.name) || !/^[A-Za-z0-9_.-]{1,64}$/.test(tool.name))
    throw new Error(`Bad tool name ${tool.name}`)
  seen.add(tool.name)
}
