import type { ActorId, AttachmentId, AttachmentRecordType, OrgId, StoredAttachment } from '@workgraph/core'
import type { AttachmentRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { int, iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

const toAttachment = (r: Selectable<Database['attachments']>): StoredAttachment => ({
  id: r.id as AttachmentId,
  orgId: r.orgId as OrgId,
  recordType: r.recordType as AttachmentRecordType,
  recordId: r.recordId,
  fileName: r.fileName,
  contentType: r.contentType,
  size: int(r.size),
  sha256: r.sha256,
  uploaderId: r.uploaderId as ActorId,
  createdAt: iso(r.createdAt),
  blobKey: r.blobKey,
})

/** Where each kind of record lives; a task row stays when the task is (soft-)deleted. */
const RECORD_TABLES = [
  ['task', 'tasks'],
  ['comment', 'comments'],
  ['project', 'projects'],
  ['document', 'documents'],
] as const satisfies ReadonlyArray<readonly [AttachmentRecordType, keyof Database]>

export function attachmentRepo(db: Kysely<Database>): AttachmentRepo {
  return {
    async insert(attachment) {
      await db.insertInto('attachments').values(attachment).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('attachments')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toAttachment(row) : null
    },
    async listByRecord(orgId, recordType, recordId, page) {
      const query = db
        .selectFrom('attachments')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('recordType', '=', recordType)
        .where('recordId', '=', recordId)
      const rows = await keysetPage(query, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toAttachment)
    },
    async delete(orgId, id) {
      await db.deleteFrom('attachments').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async orphans(limit) {
      const rows = await db
        .selectFrom('attachments as a')
        .selectAll('a')
        .where((eb) =>
          eb.or([
            // A deleted comment stays as a tombstone in its thread; its files go with its body.
            eb.and([
              eb('a.recordType', '=', 'comment'),
              eb.exists(
                eb
                  .selectFrom('comments as c')
                  .select('c.id')
                  .whereRef('c.orgId', '=', 'a.orgId')
                  .whereRef('c.id', '=', 'a.recordId')
                  .where('c.deletedAt', 'is not', null),
              ),
            ]),
            ...RECORD_TABLES.map(([type, table]) =>
              eb.and([
                eb('a.recordType', '=', type),
                eb.not(
                  eb.exists(
                    eb
                      .selectFrom(`${table} as r` as 'tasks as r')
                      .select('r.id')
                      .whereRef('r.orgId', '=', 'a.orgId')
                      .whereRef('r.id', '=', 'a.recordId'),
                  ),
                ),
              ]),
            ),
          ]),
        )
        .orderBy('a.orgId')
        .orderBy('a.id')
        .limit(limit)
        .execute()
      return rows.map(toAttachment)
    },
  }
}
