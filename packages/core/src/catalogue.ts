import { accessGroup } from './access/group.ts'
import { adminGroup } from './admin/group.ts'
import { agentsGroup } from './agents/group.ts'
import { attachmentsGroup } from './attachments/group.ts'
import { commentsGroup } from './comments/group.ts'
import { connectorsGroup } from './connectors/group.ts'
import { cyclesGroup } from './cycles/group.ts'
import { documentsGroup } from './documents/group.ts'
import { customFieldsGroup } from './fields/group.ts'
import { hubGroup } from './hub/group.ts'
import { initiativesGroup } from './initiatives/group.ts'
import { insightsGroup } from './insights/group.ts'
import { assembleCatalogue, type Catalogue, type EventKinds } from './kernel/group.ts'
import type { AnyOperation } from './kernel/operation.ts'
import { labelsGroup } from './labels/group.ts'
import { linksGroup } from './links/group.ts'
import { meGroup } from './me/group.ts'
import { notificationsGroup } from './notifications/group.ts'
import { orgsGroup } from './orgs/group.ts'
import { plansGroup } from './plans/group.ts'
import { programsGroup } from './programs/group.ts'
import { projectsGroup } from './projects/group.ts'
import { rulesGroup } from './rules/group.ts'
import { streamsGroup } from './streams/group.ts'
import { systemGroup } from './system/group.ts'
import { tasksGroup } from './tasks/group.ts'
import { teamsGroup } from './teams/group.ts'
import { templatesGroup } from './templates/group.ts'
import { timeGroup } from './time/group.ts'
import { transfersGroup } from './transfers/group.ts'
import { triageGroup } from './triage/group.ts'
import { updatesGroup } from './updates/group.ts'
import { viewsGroup } from './views/group.ts'

/**
 * The resource groups in documentation order: the reference lists their tags, operations and event
 * kinds in this order. A new group is one line here.
 */
export const CATALOGUE: Catalogue = assembleCatalogue([
  systemGroup,
  orgsGroup,
  accessGroup,
  teamsGroup,
  tasksGroup,
  cyclesGroup,
  triageGroup,
  insightsGroup,
  projectsGroup,
  updatesGroup,
  linksGroup,
  initiativesGroup,
  documentsGroup,
  customFieldsGroup,
  templatesGroup,
  programsGroup,
  timeGroup,
  labelsGroup,
  viewsGroup,
  rulesGroup,
  commentsGroup,
  attachmentsGroup,
  agentsGroup,
  plansGroup,
  connectorsGroup,
  adminGroup,
  transfersGroup,
  notificationsGroup,
  meGroup,
  hubGroup,
  streamsGroup,
])

/** Every operation of the API, in documentation order. Routes, validation, OpenAPI, MCP and docs all read this. */
export const OPERATIONS: readonly AnyOperation[] = CATALOGUE.operations

/** The tags of the reference, in order, with what each covers. */
export const TAGS: Readonly<Record<string, string>> = CATALOGUE.tags

/** Every event kind the service emits, with the operations that emit it (the table in docs/events.md). */
export const EVENT_KINDS: readonly EventKinds[] = CATALOGUE.events
