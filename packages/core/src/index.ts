export { canonicalJson, etagMatches, etagOf } from './canonical.ts'
export type { Capability, OrgRole } from './capabilities.ts'
export { atLeast, CAPABILITIES, capabilityRank, ORG_ROLES, ROLE_BASE_CAPABILITY } from './capabilities.ts'
export { OPERATIONS, TAGS } from './catalogue.ts'
export { DiscardChanges } from './discard.ts'
export type {
  Engine,
  EngineOptions,
  EngineSettings,
  ExecuteOptions,
  ExecuteResult,
  RawInput,
} from './engine.ts'
export { createEngine, STREAM_DEFAULTS, sharedSecret } from './engine.ts'
export { lastEventSeq, readVisibleEvents } from './event-reader.ts'
export type { EventHub, HubNotice, HubWatch, NewEvent, StoredEvent } from './events.ts'
export { createMemoryEventHub, watchHub } from './events.ts'
export type {
  ActivityId,
  ActorId,
  AgentId,
  ApprovalId,
  CommentId,
  CommentRevisionId,
  CycleId,
  EventId,
  GrantId,
  Id,
  IdBrand,
  InvitationId,
  LabelId,
  MemberId,
  OrgId,
  ReactionId,
  SessionId,
  StateId,
  TaskHistoryId,
  TaskId,
  TaskLinkId,
  TeamId,
  UserId,
} from './ids.ts'
export { BRAND_KEYWORD, ID_PREFIXES, IdSchema, isId, newId } from './ids.ts'
export type { Mailer } from './mailer.ts'
export { createConsoleMailer } from './mailer.ts'
export type { AuthorizeRequest } from './oauth/authorize.ts'
export { AuthorizePageError, AuthorizeRedirectError } from './oauth/authorize.ts'
export type { CimdFetcher, CimdResponse } from './oauth/cimd.ts'
export { CIMD_MAX_BYTES, cimdUrlProblem } from './oauth/cimd.ts'
export { isOAuthError, OAuthError } from './oauth/errors.ts'
export { isLoopbackRedirect } from './oauth/redirect-uris.ts'
export type { OAuthServer, OAuthServerOptions } from './oauth/server.ts'
export { createOAuthServer } from './oauth/server.ts'
export type {
  CodeRecord,
  ConsentId,
  GrantRecord,
  OAuthClientRecord,
  OAuthStore,
  RefreshTokenRecord,
  SessionRecord,
  WebSessionId,
} from './oauth/store.ts'
export type { OpenApiOptions } from './openapi.ts'
export { generateOpenApi } from './openapi.ts'
export type {
  Actor,
  AnyOperation,
  CapabilityTarget,
  EngineConfig,
  HttpMethod,
  Operation,
  OperationContext,
  StreamConfig,
} from './operation.ts'
export { defineOperation, isOrgScoped, isWrite } from './operation.ts'
export type { KeysetPosition, Page, PageRequest } from './pagination.ts'
export { CursorCodec, PAGE_LIMIT_DEFAULT, PAGE_LIMIT_MAX, PageQuery, toPage } from './pagination.ts'
export type { AccessProfile, Container, ReadScope } from './permissions.ts'
export { capabilityIn, loadProfile, readScope, UNSCOPED } from './permissions.ts'
export type { Principal, Scope } from './principal.ts'
export { SCOPES } from './principal.ts'
export type { FieldError, ProblemCode, ProblemDocument } from './problems.ts'
export { isProblem, notFound, PROBLEMS, ProblemError } from './problems.ts'
export type { RateLimitDecision, RateLimiter, RateLimitStore } from './rate-limit.ts'
export { createMemoryRateLimitStore, createRateLimiter } from './rate-limit.ts'
export type { NameCandidate } from './resolve/match.ts'
export { matchName } from './resolve/match.ts'
export type { NameKind, Resolved } from './resolve/refs.ts'
export { NAME_KINDS } from './resolve/refs.ts'
export type { ResourceDescriptor } from './resource.ts'
export { resourceOperations } from './resource.ts'
export type { ContainerType, SessionState, SubjectType } from './schemas/access.ts'
export {
  ACTIVITY_KINDS,
  Agent,
  AgentActivity,
  AgentSession,
  APPROVAL_STATES,
  ApprovalPolicy,
  ApprovalRequest,
  CONTAINER_TYPES,
  Grant,
  Invitation,
  SESSION_STATES,
  SUBJECT_TYPES,
  TeamMembership,
} from './schemas/access.ts'
export type { ReactionTargetType } from './schemas/comments.ts'
export { Comment, CommentRevision, REACTION_TARGETS, Reaction, ReactionGroup } from './schemas/comments.ts'
export type { CycleStatus, Weekday } from './schemas/cycles.ts'
export { CYCLE_STATUSES, Cycle, CycleProgress, CycleSettings, WEEKDAYS } from './schemas/cycles.ts'
export { Label, labelNameKey } from './schemas/labels.ts'
export { Member, Org, OrgRole as OrgRoleSchema } from './schemas/orgs.ts'
export type { PlanAction } from './schemas/plans.ts'
export {
  PLAN_ACTIONS,
  PLAN_LINKS,
  PLAN_MAX_STEPS,
  PlanReport,
  PlanStep,
  ResolvedName,
} from './schemas/plans.ts'
export type { RelationType } from './schemas/task-depth.ts'
export {
  RELATION_TYPES,
  TaskDependency,
  TaskLink,
  TaskRelation,
  TaskSubscriber,
} from './schemas/task-depth.ts'
export { TaskHistoryEntry } from './schemas/task-history.ts'
export type { Priority } from './schemas/tasks.ts'
export { PRIORITIES, Task } from './schemas/tasks.ts'
export type { StateCategory } from './schemas/teams.ts'
export { STATE_CATEGORIES, Team, WorkflowState } from './schemas/teams.ts'
export type { CycleAdvance } from './services/cycle-maintenance.ts'
export { isReactionEmoji } from './services/reactions.ts'
export { DEFAULT_STATES } from './services/teams.ts'
export { createUser } from './services/users.ts'
export type {
  AccessRepo,
  AgentRepo,
  ApprovalRepo,
  CommentRecord,
  CommentRepo,
  CycleFilter,
  CycleRecord,
  CycleRepo,
  CycleTally,
  EventRepo,
  GrantFilter,
  IdempotencyRecord,
  IdempotencyRepo,
  InvitationRecord,
  InvitationRepo,
  LabelFilter,
  LabelRepo,
  LockRepo,
  MemberRecord,
  MemberRepo,
  OrgRepo,
  ReactionGroupRow,
  ReactionRepo,
  ReactionTarget,
  SecretRepo,
  SessionFilter,
  SessionRepo,
  StateRepo,
  Storage,
  Store,
  StoredSecret,
  TaskDependencyRecord,
  TaskDependencyRepo,
  TaskFilter,
  TaskHistoryRecord,
  TaskHistoryRepo,
  TaskKeyRepo,
  TaskLinkRepo,
  TaskRecord,
  TaskRelationRecord,
  TaskRelationRepo,
  TaskRepo,
  TaskSort,
  TaskSubscriberRepo,
  TeamRecord,
  TeamRepo,
  User,
  UserRepo,
} from './storage.ts'
export type { StreamBroker, StreamItem, StreamSink, SubscribeOptions } from './streams/broker.ts'
export type { Positions } from './streams/cursor.ts'
export { decodeStreamCursor, encodeStreamCursor } from './streams/cursor.ts'
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
export { PRIORITY_ORDER, taskSortValue, undatedSortKey } from './task-order.ts'
export type { IssueAccessTokenOptions, TokenService } from './tokens.ts'
export { ACCESS_TOKEN_TTL_SECONDS, createTokenService } from './tokens.ts'
