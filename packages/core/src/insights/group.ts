import type { ResourceGroup } from '../kernel/group.ts'
import { insightOperations } from './operations.ts'

/** Reads that aggregate tasks in SQL, each over what the reader can see. */
export const insightsGroup: ResourceGroup = {
  name: 'insights',
  tags: [
    {
      name: 'Insights',
      description:
        'Team throughput, cycle time and velocity, and workload per assignee: the reads under an `insights` ' +
        'path, aggregates computed in the database over the tasks the caller can view. The series read on one ' +
        "record (a cycle's burndown, a project's, program's or initiative's weekly progress) sit with that record.",
      agentWork: true,
    },
  ],
  operations: insightOperations,
}
