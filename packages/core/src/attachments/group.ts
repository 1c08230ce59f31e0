import type { ResourceGroup } from '../kernel/group.ts'
import { ATTACHMENT_EVENT_DATA } from './event-data.ts'
import { attachmentOperations } from './operations.ts'
import { attachmentTargets } from './targets.ts'

/** Files on tasks, comments, projects and documents: bytes in a blob store, metadata in the database. */
export const attachmentsGroup: ResourceGroup = {
  name: 'attachments',
  tags: [
    {
      name: 'Attachments',
      description:
        'Files on a task, comment, project or document: streamed uploads with a size limit, types sniffed from ' +
        'the bytes, downloads that are never rendered inline.',
    },
  ],
  operations: attachmentOperations,
  eventData: ATTACHMENT_EVENT_DATA,
  events: [
    {
      kinds: ['attachment.created', 'attachment.deleted'],
      emittedBy:
        "`attachments.create` and `attachments.delete`; filed under the record's team (a project's first team), " +
        'so they are seen where the record is. Payload: the attachment',
    },
  ],
  targets: attachmentTargets,
}
