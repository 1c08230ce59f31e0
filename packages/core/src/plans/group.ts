import type { ResourceGroup } from '../kernel/group.ts'
import { plansCatalogue } from './operations.ts'

/** Names resolved to ids and plans applied in one transaction. */
export const plansGroup: ResourceGroup = {
  name: 'plans',
  tags: [
    {
      name: 'Organize',
      description:
        'Names resolved to ids, and plans that apply many changes in one transaction (the MCP `organize` tool).',
    },
  ],
  operations: plansCatalogue,
}
