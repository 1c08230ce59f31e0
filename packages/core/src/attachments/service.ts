import { currentOrg } from '../kernel/context.ts'
import { type AttachmentId, type CommentId, newId, type TeamId } from '../kernel/ids.ts'
import type { EngineConfig, OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { isProblem, notFound } from '../kernel/problems.ts'
import { type BlobStore, DEFAULT_MAX_UPLOAD_BYTES, limitBytes, type StoredBlob } from './blob-store.ts'
import { safeFileName } from './file-name.ts'
import type { Attachment, AttachmentRecordType } from './schemas.ts'
import { SNIFF_BYTES, sniffContentType } from './sniff.ts'
import type { StoredAttachment } from './storage.ts'

/** The record a file is attached to, as a capability target. */
export interface AttachmentRecord {
  type: AttachmentRecordType
  id: string
}

/** What the upload step kept, for the transaction that records it. */
export interface ReceivedFile extends StoredBlob {
  contentType: string
}

export function blobStoreOf(config: EngineConfig): BlobStore {
  if (!config.blobs) throw new Error('No blob store is configured: pass `config.blobs` to the engine.')
  return config.blobs
}

export function maxUploadBytes(config: EngineConfig): number {
  return config.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES
}

/**
 * Streams an upload into the blob store outside any transaction, keeping its first bytes to sniff
 * the type. Past the size limit it stops reading and the store keeps nothing (413).
 */
export async function receiveFile(
  content: AsyncIterable<Uint8Array>,
  config: EngineConfig,
): Promise<ReceivedFile> {
  const head: Uint8Array[] = []
  let headSize = 0
  async function* sniffing(): AsyncIterable<Uint8Array> {
    for await (const chunk of limitBytes(content, maxUploadBytes(config))) {
      if (headSize < SNIFF_BYTES) {
        head.push(chunk.subarray(0, SNIFF_BYTES - headSize))
        headSize += Math.min(chunk.byteLength, SNIFF_BYTES - headSize)
      }
      yield chunk
    }
  }
  const stored = await blobStoreOf(config).put(sniffing())
  const bytes = Buffer.concat(head)
  return { ...stored, contentType: await sniffContentType(bytes, stored.size === bytes.byteLength) }
}

/** Records a received file on its record, with an event filed where the record is. */
export async function createAttachment(
  ctx: OperationContext,
  input: { recordType: AttachmentRecordType; recordId: string; fileName?: string },
  file: ReceivedFile,
): Promise<Attachment> {
  try {
    const record = { type: input.recordType, id: input.recordId }
    await requireLiveRecord(ctx, record)
    const attachment: StoredAttachment = {
      id: newId('AttachmentId'),
      orgId: currentOrg(ctx).id,
      recordType: input.recordType,
      recordId: input.recordId,
      fileName: safeFileName(input.fileName),
      contentType: file.contentType,
      size: file.size,
      sha256: file.sha256,
      uploaderId: ctx.actor!.id,
      createdAt: ctx.now,
      blobKey: file.key,
    }
    await ctx.store.attachments.insert(attachment)
    const shown = withoutKey(attachment)
    ctx.emit({
      kind: 'attachment.created',
      resourceType: 'attachment',
      resourceId: attachment.id,
      teamId: await teamOf(ctx, record),
      data: shown,
    })
    return shown
  } catch (error) {
    // The bytes were kept before the transaction; a refused record must not leave them behind.
    await blobStoreOf(ctx.config).delete(file.key)
    throw error
  }
}

/** The attachments of a record the caller can view (404 when they cannot), in upload order. */
export async function listAttachments(
  ctx: OperationContext,
  query: { recordType: AttachmentRecordType; recordId: string; cursor?: string; limit?: number },
): Promise<Page<Attachment>> {
  const orgId = currentOrg(ctx).id
  const record = { type: query.recordType, id: query.recordId }
  await ctx.require('view', record)
  await requireLiveRecord(ctx, record)
  const page = await readPage(ctx, {
    scope: ['attachments.list', orgId, query.recordType, query.recordId],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (a: StoredAttachment) => a.id,
    fetch: (p) => ctx.store.attachments.listByRecord(orgId, query.recordType, query.recordId, p),
  })
  return { ...page, data: page.data.map(withoutKey) }
}

/** An attachment whose record the caller can view; otherwise 404, as if it did not exist. */
export async function requireAttachment(ctx: OperationContext, id: AttachmentId): Promise<StoredAttachment> {
  const attachment = await ctx.store.attachments.get(currentOrg(ctx).id, id)
  if (!attachment) throw notFound('Attachment')
  try {
    await ctx.require('view', recordOf(attachment))
    await requireLiveRecord(ctx, recordOf(attachment))
  } catch (error) {
    if (isProblem(error) && error.code === 'not_found') throw notFound('Attachment')
    throw error
  }
  return attachment
}

export async function getAttachment(ctx: OperationContext, id: AttachmentId): Promise<Attachment> {
  return withoutKey(await requireAttachment(ctx, id))
}

/**
 * Deletes an attachment and its bytes: its uploader needs `contribute` on the record, anyone else
 * `manage`. The bytes go at once; should the transaction then fail, the row stays without them.
 */
export async function deleteAttachment(ctx: OperationContext, id: AttachmentId): Promise<void> {
  const attachment = await requireAttachment(ctx, id)
  const record = recordOf(attachment)
  // The engine has checked `contribute`; someone else's file needs `manage` on the record.
  if (attachment.uploaderId !== ctx.actor!.id) await ctx.require('manage', record)
  await ctx.store.attachments.delete(attachment.orgId, attachment.id)
  ctx.emit({
    kind: 'attachment.deleted',
    resourceType: 'attachment',
    resourceId: attachment.id,
    teamId: await teamOf(ctx, record),
    data: withoutKey(attachment),
  })
  await blobStoreOf(ctx.config).delete(attachment.blobKey)
}

/**
 * A deleted comment stays in its thread as a tombstone, still a capability target; its files go
 * with its body: 404 at once, and the prune sweep removes them.
 */
async function requireLiveRecord(ctx: OperationContext, record: AttachmentRecord): Promise<void> {
  if (record.type !== 'comment') return
  const comment = await ctx.store.comments.get(currentOrg(ctx).id, record.id as CommentId)
  if (!comment || comment.deletedAt) throw notFound('Comment')
}

const recordOf = (a: Attachment): AttachmentRecord => ({ type: a.recordType, id: a.recordId })

function withoutKey({ blobKey: _key, ...attachment }: StoredAttachment): Attachment {
  return attachment
}

/** The team the record is filed under (a project's first team), so its readers see the events. */
async function teamOf(ctx: OperationContext, record: AttachmentRecord): Promise<TeamId | null> {
  const containers = await ctx.containersOf(record)
  return (containers?.find((c) => c.type === 'team')?.id ?? null) as TeamId | null
}
