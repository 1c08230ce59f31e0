export { previewInvitation } from './access/invitations/invitations.ts'
export { loadProfile } from './access/profile.ts'
export {
  Agent,
  AgentActivity,
  AgentSession,
  ApprovalRequest,
  ContainerApprovalPolicy,
  Grant,
} from './access/schemas.ts'
export type { DnsTxtResolver } from './admin/dns.ts'
export { checkTxtRecord } from './admin/dns.ts'
export type { InvitationPolicy } from './admin/schemas.ts'
export { Domain } from './admin/schemas.ts'
export type { BlobStore } from './attachments/blob-store.ts'
export type { AttachmentRecordType } from './attachments/schemas.ts'
export type { StoredAttachment } from './attachments/storage.ts'
export { CATALOGUE, EVENT_KINDS, OPERATIONS, TAGS } from './catalogue.ts'
export { Comment, CommentRevision, Reaction } from './comments/schemas.ts'
export type { ConnectorsConfig } from './connectors/config.ts'
export type { OutboundFetcher, OutboundPolicy } from './connectors/outbound.ts'
export { OutboundRefused } from './connectors/outbound.ts'
export type { ProviderDefinition } from './connectors/providers.ts'
export { githubProvider, gitlabProvider, matchItemUrl, workgraphProvider } from './connectors/providers.ts'
export { LinkedItem } from './connectors/schemas.ts'
export { Cycle, CycleSettings } from './cycles/schemas.ts'
export type { DocumentHolderType } from './documents/schemas.ts'
export { DOCUMENT_CONTENT_MAX, Document, DocumentSubscriber, DocumentVersion } from './documents/schemas.ts'
export type { Engine } from './engine.ts'
export { createEngine } from './engine.ts'
export type { CustomFieldValues } from './fields/schemas.ts'
export { CustomField } from './fields/schemas.ts'
export {
  HUB_RECORD_TYPES,
  HUB_SEARCH_TYPES,
  type HubRecordType,
  type HubRelation,
  type HubSearchType,
  type RelatedRecord,
  type TypeaheadHit,
  type TypeaheadType,
} from './hub/storage.ts'
export { InitiativeHistoryEntry } from './initiatives/history/schemas.ts'
export { type InitiativeMetricRecord, InitiativeMetricValue } from './initiatives/metric/schemas.ts'
export { Initiative, InitiativeMember, InitiativeProject } from './initiatives/schemas.ts'
export type { CycleBurndown, TeamVelocity } from './insights/schemas.ts'
export type { LiveCheck, Principal } from './kernel/auth/principal.ts'
export { sharedSecret } from './kernel/auth/shared-secret.ts'
export type { Capability, OrgRole } from './kernel/capabilities.ts'
export { CAPABILITIES } from './kernel/capabilities.ts'
export type { EventHub, HubNotice, NewEvent, StoredEvent } from './kernel/events/events.ts'
export { createMemoryEventHub } from './kernel/events/events.ts'
export { exampleId } from './kernel/examples.ts'
export type {
  ActivityId,
  ActorId,
  AgentId,
  AgentSessionId,
  AllocationId,
  ApprovalPolicyId,
  AttachmentId,
  AutomationRuleId,
  AutomationRunId,
  AwayId,
  CommentId,
  CommentRevisionId,
  ConnectionId,
  CustomFieldId,
  CycleId,
  DocumentId,
  DocumentVersionId,
  EventId,
  ExportId,
  FavoriteId,
  GrantId,
  Id,
  ImportId,
  InitiativeId,
  LabelId,
  LinkedItemId,
  LinkId,
  MemberId,
  MilestoneId,
  NotificationId,
  OrgId,
  PlanItemId,
  ProgramHistoryId,
  ProgramId,
  ProjectId,
  ProjectRelationId,
  ProjectStatusId,
  ReactionId,
  RecurrenceId,
  ReminderId,
  StateId,
  TaskId,
  TeamId,
  TemplateId,
  TimeEntryId,
  UserId,
  ViewId,
} from './kernel/ids.ts'
export { ID_PREFIXES, IdSchema, isId, newId } from './kernel/ids.ts'
export type { Mailer } from './kernel/mailer.ts'
export { createConsoleMailer } from './kernel/mailer.ts'
export { isApiOperation } from './kernel/openapi/document.ts'
export type { Actor, AnyOperation, FileAnswer } from './kernel/operation.ts'
export { isOrgScoped, isWrite } from './kernel/operation.ts'
export type { PageRequest } from './kernel/pagination.ts'
export { CURSOR_PATTERN, CursorCodec } from './kernel/pagination.ts'
export type { ContainerReach } from './kernel/permissions.ts'
export { readScope } from './kernel/permissions.ts'
export { ETAG_LIST_PATTERN, etagMatches, etagOf } from './kernel/pipeline/canonical.ts'
export type { EngineSettings } from './kernel/pipeline/engine-options.ts'
export type { RawInput } from './kernel/pipeline/execution.ts'
export type { RateLimitDecision, RateLimitStore } from './kernel/pipeline/rate-limit.ts'
export { createMemoryRateLimitStore, createRateLimiter } from './kernel/pipeline/rate-limit.ts'
export { PROBLEM_ADVICE } from './kernel/problems/advice.ts'
export type { FieldError, ProblemCode, ProblemDocument } from './kernel/problems.ts'
export { isProblem, PROBLEMS, ProblemError } from './kernel/problems.ts'
export type { ReadScope } from './kernel/read-scope.ts'
export { UNSCOPED } from './kernel/read-scope.ts'
export { Label, labelNameKey } from './labels/schemas.ts'
export type { LinkParentType } from './links/schemas.ts'
export { Link } from './links/schemas.ts'
export { UNSUBSCRIBE_PATH } from './mail/unsubscribe.ts'
export { PLAN_DAY_MAX } from './me/plan/storage.ts'
export type { Preferences, Profile } from './me/schemas.ts'
export { DATE_FORMATS, NOTIFICATION_DELIVERIES, WEEK_STARTS } from './me/schemas.ts'
export { FAVORITES_MAX } from './me/storage.ts'
export type { NotificationKind, NotificationRecord } from './notifications/schemas.ts'
export { NOTIFICATION_KINDS } from './notifications/schemas.ts'
export { RESET_LINK_MINUTES, SIGN_UP_LINK_HOURS } from './oauth/accounts.ts'
export type { AuthorizeRequest } from './oauth/authorize.ts'
export { AuthorizePageError, AuthorizeRedirectError } from './oauth/authorize.ts'
export type { CimdFetcher, CimdResponse } from './oauth/cimd.ts'
export { CIMD_MAX_BYTES } from './oauth/cimd.ts'
export { isOAuthError, OAuthError } from './oauth/errors.ts'
export { API_REFERENCE_CLIENT_ID, apiReferenceRedirectUri } from './oauth/first-party.ts'
export { DEFAULT_PASSWORD_COST, MAX_PASSWORD_COST, MIN_PASSWORD_COST } from './oauth/passwords.ts'
export { isLoopbackRedirect } from './oauth/redirect-uris.ts'
export type { OAuthServer, OAuthServerOptions } from './oauth/server.ts'
export { createOAuthServer } from './oauth/server.ts'
export type { ConsentId, WebSessionId } from './oauth/store.ts'
export { generateOpenApi } from './openapi.ts'
export { Member, Org } from './orgs/schemas.ts'
export { matchName } from './plans/match.ts'
export type { NameKind } from './plans/refs.ts'
export { PLAN_LINKS, PLAN_MAX_STEPS, PlanStep } from './plans/schemas.ts'
export { Program, ProgramHistoryEntry } from './programs/schemas.ts'
export { nextDueAt, nextUpdateDue } from './projects/cadence.ts'
export { ProjectHistoryEntry } from './projects/history/records.ts'
export { ProjectRelation } from './projects/relations/schemas.ts'
export { ProjectStatus } from './projects/schemas.ts'
export { CadenceDefault } from './projects/update-settings.ts'
export { RULE_CHAIN_LIMIT } from './rules/engine.ts'
export type { AutomationRule, AutomationRun } from './rules/schemas.ts'
export type { StreamItem, StreamSink } from './streams/broker.ts'
export { lastEventSeq, readVisibleEvents } from './streams/event-reader.ts'
export { readOrg } from './streams/read.ts'
export { readerFor } from './streams/readers.ts'
export { streamEventOf } from './streams/schema.ts'
export { parseSseQuery, SSE_ENDPOINT } from './streams/sse-query.ts'
export { fieldSortKind, missingFieldKey } from './tasks/fields/order.ts'
export { TaskHistoryEntry } from './tasks/history/schemas.ts'
export { PRIORITY_ORDER, undatedSortKey } from './tasks/order.ts'
export { matchingTaskIds } from './tasks/query.ts'
export { ranksInOrder } from './tasks/rank/rank.ts'
export type { RelationType } from './tasks/relations/schemas.ts'
export { Task } from './tasks/schemas.ts'
export type { StateCategory } from './teams/schemas.ts'
export { Team, WorkflowState } from './teams/schemas.ts'
export { DEFAULT_STATES } from './teams/service.ts'
export type { TeamSettingsRecord } from './teams/settings-schemas.ts'
export type { TemplateKind } from './templates/schemas.ts'
export { Recurrence, Reminder, Template } from './templates/schemas.ts'
export type { AllocationUnit, TimeEntrySource } from './time/schemas.ts'
export { TimeEntry } from './time/schemas.ts'
export { Export, Import } from './transfers/schemas.ts'
export { UpdateRequest } from './updates/cadence-schemas.ts'
export { StatusUpdate, UpdateRevision } from './updates/schemas.ts'
export { createUser } from './users/create-user.ts'
export type { ViewDisplayOverrides } from './views/preference-schemas.ts'
export type { View, ViewFilter } from './views/schemas.ts'
