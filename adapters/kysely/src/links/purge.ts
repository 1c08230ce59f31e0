import type { LinkParentType } from '@workgraph/core'
import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

/** A deleted parent's URL resources. */
const linksOf = (parentType: LinkParentType) =>
  deleteRows(['resourceLinks', 'parentId', ['parentType', parentType]])

export const linksPurge: GroupPurge = {
  group: 'links',
  owns: [],
  parts: { project: linksOf('project'), program: linksOf('program'), initiative: linksOf('initiative') },
}
