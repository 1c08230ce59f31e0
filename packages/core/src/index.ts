export { type InvitationPreview, previewInvitation } from './access/invitations.ts'
export { loadProfile } from './access/profile.ts'
export type { ContainerType, SessionState, SubjectType } from './access/schemas.ts'
export {
  ACTIVITY_KINDS,
  Agent,
  AgentActivity,
  AgentSession,
  APPROVAL_STATES,
  ApprovalPolicy,
  ApprovalRequest,
  CONTAINER_TYPES,
  ContainerApprovalPolicy,
  Grant,
  Invitation,
  SESSION_STATES,
  SUBJECT_TYPES,
  TeamMember,
} from './access/schemas.ts'
export type { DnsTxtResolver } from './admin/dns.ts'
export { checkTxtRecord } from './admin/dns.ts'
export type { InvitationPolicy } from './admin/schemas.ts'
export { AuditEntry, Domain, INVITATION_POLICIES, OrgSettings } from './admin/schemas.ts'
export type { BlobStore, StoredBlob } from './attachments/blob-store.ts'
export { DEFAULT_MAX_UPLOAD_BYTES, limitBytes } from './attachments/blob-store.ts'
export { safeFileName } from './attachments/file-name.ts'
export type { AttachmentRecordType } from './attachments/schemas.ts'
export { Attachment } from './attachments/schemas.ts'
export type { StoredAttachment } from './attachments/storage.ts'
export { CATALOGUE, EVENT_KINDS, OPERATIONS, TAGS } from './catalogue.ts'
export { isReactionEmoji } from './comments/reactions.ts'
export type { ReactionTargetType } from './comments/schemas.ts'
export { Comment, CommentRevision, REACTION_TARGETS, Reaction, ReactionGroup } from './comments/schemas.ts'
export type { ConnectorsConfig } from './connectors/config.ts'
export type {
  OutboundFetcher,
  OutboundPolicy,
  OutboundRequest,
  OutboundResponse,
} from './connectors/outbound.ts'
export { OutboundRefused } from './connectors/outbound.ts'
export type { ItemDefinition, ProviderDefinition } from './connectors/providers.ts'
export { githubProvider, gitlabProvider, matchItemUrl, workgraphProvider } from './connectors/providers.ts'
export { Connection, LinkedItem, RecordProperty } from './connectors/schemas.ts'
export type { CycleAdvance } from './cycles/maintenance.ts'
export type { CycleStatus, Weekday } from './cycles/schemas.ts'
export { CYCLE_STATUSES, Cycle, CycleProgress, CycleSettings, WEEKDAYS } from './cycles/schemas.ts'
export type { DocumentHolderType } from './documents/schemas.ts'
export {
  DOCUMENT_CONTENT_MAX,
  DOCUMENT_HOLDER_TYPES,
  Document,
  DocumentSubscriber,
  DocumentVersion,
} from './documents/schemas.ts'
export type { Engine } from './engine.ts'
export { createEngine } from './engine.ts'
export type { CustomFieldRecordKind, CustomFieldType, CustomFieldValues } from './fields/schemas.ts'
export {
  CUSTOM_FIELD_RECORD_KINDS,
  CUSTOM_FIELD_TYPES,
  CustomField,
  CustomFieldOption,
  CustomFieldValue,
} from './fields/schemas.ts'
export {
  HUB_RECORD_TYPES,
  HUB_SEARCH_TYPES,
  type HubRecordType,
  type HubRelation,
  type HubSearchType,
  type RelatedRecord,
  TYPEAHEAD_TYPES,
  type TypeaheadHit,
  type TypeaheadType,
} from './hub/storage.ts'
export { InitiativeHistoryEntry } from './initiatives/history-schemas.ts'
export {
  InitiativeMetric,
  type InitiativeMetricRecord,
  InitiativeMetricValue,
} from './initiatives/metric-schemas.ts'
export type { InitiativeStatus } from './initiatives/schemas.ts'
export {
  INITIATIVE_STATUSES,
  Initiative,
  InitiativeMember,
  InitiativeProject,
  InitiativeRollup,
  MAX_INITIATIVE_DEPTH,
} from './initiatives/schemas.ts'
export type { CycleBurndown, TeamVelocity } from './insights/schemas.ts'
export { canonicalJson, ETAG_LIST_PATTERN, etagMatches, etagOf } from './kernel/canonical.ts'
export type { Capability, OrgRole } from './kernel/capabilities.ts'
export {
  atLeast,
  CAPABILITIES,
  capabilityRank,
  ORG_ROLES,
  ROLE_BASE_CAPABILITY,
} from './kernel/capabilities.ts'
export { DiscardChanges } from './kernel/discard.ts'
export type { EngineBase } from './kernel/engine.ts'
export type { EngineOptions, EngineSettings } from './kernel/engine-options.ts'
export { STREAM_DEFAULTS } from './kernel/engine-options.ts'
export type { EventHub, HubNotice, HubWatch, NewEvent, StoredEvent } from './kernel/events.ts'
export { createMemoryEventHub, watchHub } from './kernel/events.ts'
export { exampleId } from './kernel/examples.ts'
export type { ExecuteOptions, ExecuteResult, RawInput } from './kernel/execution.ts'
export type {
  ActivityId,
  ActorId,
  AgentId,
  AgentSessionId,
  AllocationId,
  ApprovalPolicyId,
  ApprovalRequestId,
  AttachmentId,
  AutomationRuleId,
  AutomationRunId,
  AwayId,
  CommentId,
  CommentRevisionId,
  ConnectionId,
  CustomFieldId,
  CustomFieldOptionId,
  CycleId,
  DocumentId,
  DocumentVersionId,
  DomainId,
  EventId,
  ExportId,
  FavoriteId,
  GrantId,
  Id,
  IdBrand,
  ImportId,
  InitiativeHistoryId,
  InitiativeId,
  InitiativeMetricValueId,
  InvitationId,
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
  ProjectHistoryId,
  ProjectId,
  ProjectRelationId,
  ProjectStatusId,
  ReactionId,
  RecurrenceId,
  ReminderId,
  StateId,
  TaskHistoryId,
  TaskId,
  TeamId,
  TemplateId,
  TimeEntryId,
  UpdateId,
  UpdateRequestId,
  UpdateRevisionId,
  UserId,
  ViewId,
} from './kernel/ids.ts'
export { BRAND_KEYWORD, ID_PREFIXES, IdSchema, isId, newId } from './kernel/ids.ts'
export type { Mailer, MailMessage } from './kernel/mailer.ts'
export { createConsoleMailer } from './kernel/mailer.ts'
export type { EventStreamEndpoint, OpenApiOptions } from './kernel/openapi.ts'
export { isApiOperation } from './kernel/openapi.ts'
export type {
  Actor,
  AnyOperation,
  CapabilityTarget,
  EngineConfig,
  FileAnswer,
  HttpMethod,
  Operation,
  OperationContext,
  StreamBody,
  StreamConfig,
} from './kernel/operation.ts'
export { defineOperation, isOrgScoped, isWrite } from './kernel/operation.ts'
export type { KeysetPosition, Page, PageRequest } from './kernel/pagination.ts'
export {
  CURSOR_PATTERN,
  CursorCodec,
  PAGE_LIMIT_DEFAULT,
  PAGE_LIMIT_MAX,
  PageQuery,
  toPage,
} from './kernel/pagination.ts'
export type { AccessProfile, Container, ContainerReach } from './kernel/permissions.ts'
export { capabilityIn, readScope } from './kernel/permissions.ts'
export type { Principal, Scope } from './kernel/principal.ts'
export { SCOPES } from './kernel/principal.ts'
export { PROBLEM_ADVICE } from './kernel/problem-advice.ts'
export type { FieldError, ProblemCode, ProblemDocument } from './kernel/problems.ts'
export { isProblem, notFound, PROBLEMS, ProblemError } from './kernel/problems.ts'
export type { RateLimitDecision, RateLimiter, RateLimitStore } from './kernel/rate-limit.ts'
export { createMemoryRateLimitStore, createRateLimiter } from './kernel/rate-limit.ts'
export type { ReadScope } from './kernel/read-scope.ts'
export { UNSCOPED } from './kernel/read-scope.ts'
export { inBody, referenceNotFound } from './kernel/references.ts'
export type { ResourceDescriptor } from './kernel/resource.ts'
export { resourceOperations } from './kernel/resource.ts'
export { sharedSecret } from './kernel/shared-secret.ts'
export type { IssueAccessTokenOptions, TokenService } from './kernel/tokens.ts'
export { ACCESS_TOKEN_TTL_SECONDS, createTokenService } from './kernel/tokens.ts'
export { Label, labelNameKey } from './labels/schemas.ts'
export type { LinkParentType } from './links/schemas.ts'
export { LINK_PARENT_TYPES, Link } from './links/schemas.ts'
export type { MailPass } from './mail/run.ts'
export type { MailCounts } from './mail/storage.ts'
export { UNSUBSCRIBE_PATH } from './mail/unsubscribe.ts'
export type { PlanItem } from './me/plan-schemas.ts'
export { PLAN_DAY_MAX } from './me/plan-storage.ts'
export type { Favorite, Me, Preferences, Profile } from './me/schemas.ts'
export {
  DATE_FORMATS,
  NOTIFICATION_DELIVERIES,
  type NotificationDelivery,
  WEEK_STARTS,
} from './me/schemas.ts'
export { FAVORITES_MAX } from './me/storage.ts'
export type { NotifierLoop, NotifierPass } from './notifications/run.ts'
export type {
  NotificationKind,
  NotificationRecord,
  NotificationState,
} from './notifications/schemas.ts'
export { NOTIFICATION_KINDS, Notification, NotificationSettings } from './notifications/schemas.ts'
export type { LinkSent } from './oauth/accounts.ts'
export { RESET_LINK_MINUTES, SIGN_UP_LINK_HOURS } from './oauth/accounts.ts'
export type { AuthorizeRequest } from './oauth/authorize.ts'
export { AuthorizePageError, AuthorizeRedirectError } from './oauth/authorize.ts'
export type { CimdFetcher, CimdResponse } from './oauth/cimd.ts'
export { CIMD_MAX_BYTES, cimdUrlProblem } from './oauth/cimd.ts'
export { isOAuthError, OAuthError } from './oauth/errors.ts'
export { API_REFERENCE_CLIENT_ID, apiReferenceRedirectUri } from './oauth/first-party.ts'
export { isLoopbackRedirect } from './oauth/redirect-uris.ts'
export type { OAuthServer, OAuthServerOptions } from './oauth/server.ts'
export { createOAuthServer } from './oauth/server.ts'
export type { ConsentId, WebSessionId } from './oauth/store.ts'
export { generateOpenApi } from './openapi.ts'
export { Member, Org, OrgRole as OrgRoleSchema } from './orgs/schemas.ts'
export type { NameCandidate } from './plans/match.ts'
export { matchName } from './plans/match.ts'
export type { NameKind, Resolved } from './plans/refs.ts'
export { NAME_KINDS } from './plans/refs.ts'
export type { PlanAction } from './plans/schemas.ts'
export {
  PLAN_ACTIONS,
  PLAN_LINKS,
  PLAN_MAX_STEPS,
  PlanReport,
  PlanStep,
  ResolvedName,
} from './plans/schemas.ts'
export type { ProgramStatus } from './programs/schemas.ts'
export {
  PROGRAM_STATUSES,
  Program,
  ProgramHistoryEntry,
  ProgramProject,
  ProgramRollup,
} from './programs/schemas.ts'
export { nextDueAt, nextUpdateDue } from './projects/cadence.ts'
export { ProjectHistoryEntry } from './projects/history-records.ts'
export type { ProjectRelationType } from './projects/relation-schemas.ts'
export { PROJECT_RELATION_TYPES, ProjectRelation } from './projects/relation-schemas.ts'
export type {
  MilestoneStatus,
  ProjectStatusCategory,
  UpdateCadence,
} from './projects/schemas.ts'
export {
  MILESTONE_STATUSES,
  Milestone,
  PROJECT_STATUS_CATEGORIES,
  Project,
  ProjectProgress,
  ProjectStatus,
} from './projects/schemas.ts'
export { CadenceDefault, UpdateSettings } from './projects/update-settings.ts'
export { RULE_CHAIN_LIMIT } from './rules/engine.ts'
export type { RulePass } from './rules/run.ts'
export type { AutomationRule, AutomationRun, RuleAction, RuleTriggerSpec } from './rules/schemas.ts'
export type { StreamBroker, StreamItem, StreamSink, SubscribeOptions } from './streams/broker.ts'
export type { Positions } from './streams/cursor.ts'
export { decodeStreamCursor, encodeStreamCursor } from './streams/cursor.ts'
export { lastEventSeq, readVisibleEvents } from './streams/event-reader.ts'
export type { PollRequest } from './streams/poll.ts'
export { pollHub, pollOrg } from './streams/poll.ts'
export type { OrgPage } from './streams/read.ts'
export { readHub, readOrg } from './streams/read.ts'
export type { StreamReader } from './streams/readers.ts'
export { readerFor, readerIn, readersOf } from './streams/readers.ts'
export type { StreamEndReason } from './streams/schema.ts'
export {
  PollQueryFields,
  parseKinds,
  STREAM_END_REASONS,
  StreamEnd,
  StreamEvent,
  StreamPage,
  StreamQueryFields,
  streamEventOf,
} from './streams/schema.ts'
export { parseSseQuery, SSE_ENDPOINT, SseQuery } from './streams/sse-query.ts'
export type { TaskAutomationPass } from './tasks/automation.ts'
export type { RelationType } from './tasks/depth-schemas.ts'
export {
  RELATION_TYPES,
  TaskDependency,
  TaskRelation,
  TaskSubscriber,
} from './tasks/depth-schemas.ts'
export type { FieldSortKind } from './tasks/field-order.ts'
export { fieldSortKind, missingFieldKey } from './tasks/field-order.ts'
export type { TaskFilterInput } from './tasks/filter-schema.ts'
export { TaskFilterSchema } from './tasks/filter-schema.ts'
export { TaskHistoryEntry } from './tasks/history-schemas.ts'
export { PRIORITY_ORDER, taskSortValue, undatedSortKey } from './tasks/order.ts'
export { matchingTaskIds } from './tasks/query.ts'
export { ranksInOrder } from './tasks/rank.ts'
export type { Priority } from './tasks/schemas.ts'
export { PRIORITIES, Task } from './tasks/schemas.ts'
export type { StateCategory } from './teams/schemas.ts'
export { STATE_CATEGORIES, Team, WorkflowState } from './teams/schemas.ts'
export { DEFAULT_STATES } from './teams/service.ts'
export type { EstimateScale, TeamSettingsRecord } from './teams/settings-schemas.ts'
export { ESTIMATE_SCALES, TeamSettings, TriageSettings } from './teams/settings-schemas.ts'
export type { SchedulerLoop, SchedulerPass } from './templates/scheduler.ts'
export type { TemplateKind } from './templates/schemas.ts'
export {
  Occurrence,
  Recurrence,
  Reminder,
  Schedule,
  TEMPLATE_KINDS,
  Template,
  TemplateApplication,
} from './templates/schemas.ts'
export type { AllocationUnit, SummaryGroup, TimeEntrySource } from './time/schemas.ts'
export { Allocation, TimeEntry, Timer, TimeSummary } from './time/schemas.ts'
export { Export, IMPORT_FORMATS, Import, ImportError } from './transfers/schemas.ts'
export { UpdateDueItem, UpdateRequest } from './updates/cadence-schemas.ts'
export type { UpdateHealth, UpdateSubjectType } from './updates/schemas.ts'
export {
  StatusUpdate,
  UPDATE_HEALTHS,
  UPDATE_SUBJECT_TYPES,
  UpdateProgress,
  UpdateRevision,
} from './updates/schemas.ts'
export { createUser } from './users/create-user.ts'
export type { ViewDisplay, ViewDisplayOverrides, ViewPreferences } from './views/preference-schemas.ts'
export type { View, ViewFilter } from './views/schemas.ts'
