import type { ResourceGroup } from '../kernel/group.ts'
import { insightOperations } from './operations.ts'

/** Reads that aggregate tasks in SQL, each over what the reader can see. */
export const insightsGroup: ResourceGroup = {
  name: 'insights',
  tags: [
    {
      name: 'Insights',
      description:
        'Cycle burndown, team throughput, cycle time and velocity, and workload per assignee: aggregates ' +
        'computed in the database over the tasks the caller can view.',
      agentWork: true,
    },
  ],
  operations: insightOperations,
}
