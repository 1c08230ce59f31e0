import type { ResourceGroup } from '../kernel/group.ts'
import { DOCUMENT_EVENT_DATA } from './event-data.ts'
import { documentOperations } from './operations.ts'
import { DOCUMENT_PROBLEMS } from './problems.ts'
import { documentTargets } from './targets.ts'

/** Markdown documents of teams and projects (later programs and initiatives), with content versions. */
export const documentsGroup: ResourceGroup = {
  name: 'documents',
  tags: [
    {
      name: 'Documents',
      description:
        'Markdown documents of a team or a project: full-text search, content versions with restore, subscribers.',
      agentWork: true,
    },
  ],
  operations: documentOperations,
  problems: DOCUMENT_PROBLEMS,
  eventData: DOCUMENT_EVENT_DATA,
  events: [
    {
      kinds: [
        'document.created',
        'document.updated',
        'document.archived',
        'document.restored',
        'document.deleted',
        'document.version_restored',
        'document.locked',
        'document.unlocked',
      ],
      emittedBy:
        "`documents.*` and `documents.versions.restore`; filed under the holder's team (a project's first team). " +
        'Payloads leave the content out; `document.updated` and `document.version_restored` carry the `changes` ' +
        '(a content change as `version` numbers); `document.locked` names `lockedById`, `document.unlocked` the one whose lock went',
    },
    {
      kinds: ['document_subscriber.created', 'document_subscriber.deleted'],
      emittedBy: '`documents.subscribers.*` (resource id: the document)',
    },
  ],
  targets: documentTargets,
}
