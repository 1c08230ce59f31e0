import type { ResourceGroup } from '../kernel/group.ts'
import { configOperation } from './operations.ts'

/** The service itself. */
export const systemGroup: ResourceGroup = {
  name: 'system',
  tags: [{ name: 'Service', description: 'The service itself: configuration and limits.' }],
  operations: [configOperation],
}
