import type { LinkParentType } from '@workgraph/core'
import type { GroupPurge, PurgePart } from '../purge-kinds.ts'

/** A deleted parent's URL resources. */
const linksOf =
  (parentType: LinkParentType): PurgePart =>
  async (db, orgId, ids) => {
    await db
      .deleteFrom('resourceLinks')
      .where('orgId', '=', orgId)
      .where('parentType', '=', parentType)
      .where('parentId', 'in', [...ids])
      .execute()
  }

export const linksPurge: GroupPurge = {
  group: 'links',
  owns: [],
  parts: { project: linksOf('project'), program: linksOf('program'), initiative: linksOf('initiative') },
}
