import type { AttachmentId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Attachment, AttachmentRecordType } from './schemas.ts'

/** An attachment as stored: its metadata and where the blob store keeps its bytes. */
export type StoredAttachment = Attachment & { blobKey: string }

export interface AttachmentRepo {
  insert(attachment: StoredAttachment): Promise<void>
  get(orgId: OrgId, id: AttachmentId): Promise<StoredAttachment | null>
  /** The attachments of one record, in upload order (by id). */
  listByRecord(
    orgId: OrgId,
    recordType: AttachmentRecordType,
    recordId: string,
    page: PageRequest<'id'>,
  ): Promise<StoredAttachment[]>
  delete(orgId: OrgId, id: AttachmentId): Promise<void>
  /**
   * Attachments, of any org, whose record is gone (a deleted project or document, a deleted
   * comment's tombstone; a task, only ever soft-deleted, keeps them), at most `limit` of them.
   */
  orphans(limit: number): Promise<StoredAttachment[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    attachments: AttachmentRepo
  }
}
