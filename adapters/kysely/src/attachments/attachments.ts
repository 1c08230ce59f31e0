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
  }
}
