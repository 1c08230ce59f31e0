import { commentTargets } from '../comments/targets.ts'
import { documentTargets } from '../documents/targets.ts'
import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { projectTargets } from '../projects/targets.ts'
import { taskTargets } from '../tasks/targets.ts'
import type { AttachmentRecordType } from './schemas.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    attachment: true
  }
}

const RECORDS: Record<AttachmentRecordType, TargetResolver> = {
  task: taskTargets.task,
  comment: commentTargets.comment,
  project: projectTargets.project,
  document: documentTargets.document,
}

/** An attachment is held by whatever holds its record: whoever cannot view the record cannot see it. */
export const attachmentTargets = {
  attachment: {
    name: 'Attachment',
    containers: async (store: Store, orgId: OrgId, id: string, hook: HookReader) => {
      const attachment = await store.attachments.get(orgId, id as never)
      return attachment
        ? RECORDS[attachment.recordType].containers(store, orgId, attachment.recordId, hook)
        : null
    },
  },
} satisfies Record<string, TargetResolver>
