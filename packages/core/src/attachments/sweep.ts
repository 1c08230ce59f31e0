import type { EngineConfig } from '../kernel/operation.ts'
import type { Storage } from '../kernel/storage.ts'

/**
 * Deletes the attachments whose record was deleted: their rows, then (after that commit) their
 * bytes. They were unreachable already (every read resolves the record); no event is written, the
 * record's own deletion said it. A crash between the two steps leaves bytes without a row.
 */
export async function sweepAttachments(storage: Storage, config: EngineConfig, batch = 100): Promise<number> {
  const blobs = config.blobs
  if (!blobs) return 0
  let swept = 0
  for (;;) {
    const orphans = await storage.read((s) => s.attachments.orphans(batch))
    if (orphans.length === 0) return swept
    await storage.transaction(async (s) => {
      for (const a of orphans) await s.attachments.delete(a.orgId, a.id)
    })
    for (const a of orphans) await blobs.delete(a.blobKey)
    swept += orphans.length
    if (orphans.length < batch) return swept
  }
}
