import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

/**
 * A program's labels; its project links, members, teams and initiative links go by foreign-key
 * cascade with the row, as do the initiative links of a deleted initiative or the program links of a
 * deleted project.
 */
export const programsPurge: GroupPurge = {
  group: 'programs',
  owns: ['program'],
  parts: { program: deleteRows(['programLabels', 'programId'], ['programs', 'id']) },
}
