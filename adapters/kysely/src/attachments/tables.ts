import type { BigIntColumn, Timestamp } from '../columns.ts'

/** Attachment metadata; the bytes are in the blob store under `blobKey`. */
export interface AttachmentsTables {
  attachments: {
    orgId: string
    id: string
    recordType: string
    recordId: string
    fileName: string
    contentType: string
    size: BigIntColumn
    sha256: string
    blobKey: string
    uploaderId: string
    createdAt: Timestamp
  }
}
