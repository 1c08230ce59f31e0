import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

export const fieldsPurge: GroupPurge = {
  group: 'fields',
  owns: [],
  parts: { project: deleteRows(['customFieldValues', 'recordId', ['recordKind', 'project']]) },
}
