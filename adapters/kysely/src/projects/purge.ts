import type { OrgId } from '@workgraph/core'
import type { Kysely } from 'kysely'
import { deleteThreadsOf } from '../comments/purge.ts'
import { deleteRecordProperties } from '../connectors/record-properties.ts'
import { deleteLinksOf } from '../links/resource-links.ts'
import type { Database } from '../schema.ts'

/**
 * Deletes a project and everything that lives only through it (milestones, threads, updates, documents,
 * field values, history, members, labels, teams, URL resources); its tasks stay, without project or milestone.
 * Answers the ids of those tasks.
 */
export async function purgeProject(db: Kysely<Database>, orgId: OrgId, id: string): Promise<string[]> {
  const tasks = await db
    .selectFrom('tasks')
    .select('id')
    .where('orgId', '=', orgId)
    .where('projectId', '=', id)
    .where('deletedAt', 'is', null)
    .orderBy('id')
    .execute()
  await db
    .updateTable('tasks')
    .set({ projectId: null, milestoneId: null })
    .where('orgId', '=', orgId)
    .where('projectId', '=', id)
    .execute()
  // Threads on the project, its milestones and its updates go with them.
  const milestoneIds = await db
    .selectFrom('milestones')
    .select('id')
    .where('orgId', '=', orgId)
    .where('projectId', '=', id)
    .execute()
  const updateIds = await db
    .selectFrom('statusUpdates')
    .select('id')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', 'project')
    .where('subjectId', '=', id)
    .execute()
  await deleteThreadsOf(db, orgId, 'project', [id])
  await deleteThreadsOf(
    db,
    orgId,
    'milestone',
    milestoneIds.map((m) => m.id),
  )
  await deleteThreadsOf(
    db,
    orgId,
    'update',
    updateIds.map((u) => u.id),
  )
  await db.deleteFrom('milestones').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await db
    .deleteFrom('updateRequests')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', 'project')
    .where('subjectId', '=', id)
    .execute()
  await db.deleteFrom('linkedItems').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await deleteRecordProperties(db, orgId, 'project', id)
  await db
    .deleteFrom('customFieldValues')
    .where('orgId', '=', orgId)
    .where('recordKind', '=', 'project')
    .where('recordId', '=', id)
    .execute()
  // Its status updates and their history go with it.
  const updates = db
    .selectFrom('statusUpdates')
    .select('id')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', 'project')
    .where('subjectId', '=', id)
  await db
    .deleteFrom('statusUpdateRevisions')
    .where('orgId', '=', orgId)
    .where('updateId', 'in', updates)
    .execute()
  await db
    .deleteFrom('statusUpdates')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', 'project')
    .where('subjectId', '=', id)
    .execute()
  // Initiatives that linked it lose the link.
  await db.deleteFrom('initiativeProjects').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  // Its documents, with their versions and subscribers, go with it too.
  const documents = db
    .selectFrom('documents')
    .select('id')
    .where('orgId', '=', orgId)
    .where('holderType', '=', 'project')
    .where('holderId', '=', id)
  const documentIds = (await documents.execute()).map((d) => d.id)
  await deleteThreadsOf(db, orgId, 'document', documentIds)
  for (const table of ['documentSubscribers', 'documentVersions'] as const) {
    await db.deleteFrom(table).where('orgId', '=', orgId).where('documentId', 'in', documents).execute()
  }
  await db
    .deleteFrom('documents')
    .where('orgId', '=', orgId)
    .where('holderType', '=', 'project')
    .where('holderId', '=', id)
    .execute()
  await db.deleteFrom('projectHistory').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await db.deleteFrom('projectMembers').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await db.deleteFrom('projectLabels').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await deleteLinksOf(db, orgId, 'project', id)
  await db.deleteFrom('projectTeams').where('orgId', '=', orgId).where('projectId', '=', id).execute()
  await db.deleteFrom('projects').where('orgId', '=', orgId).where('id', '=', id).execute()
  return tasks.map((t) => t.id)
}
