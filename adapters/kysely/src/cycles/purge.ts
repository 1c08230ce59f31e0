import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

export const cyclesPurge: GroupPurge = {
  group: 'cycles',
  owns: ['cycle'],
  parts: { cycle: deleteRows(['cycles', 'id']) },
}
