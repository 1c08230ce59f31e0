// `@workgraph/core/storage`: what a storage adapter implements. The kernel declares the transaction
// and its own repositories; each resource group declares its repositories beside its services and
// adds them to `Store` (see kernel/storage.ts). A new group adds one line here.

export type {
  AccessRepo,
  ActiveStanding,
  GrantFilter,
  InvitationRecord,
  InvitationRepo,
  MemberStanding,
  OrgStanding,
} from './access/storage.ts'
export type { AuditFilter, AuditLogRepo, DomainRepo, OrgSettingsRepo } from './admin/storage.ts'
export type {
  AgentRepo,
  ApprovalPolicyFilter,
  ApprovalPolicyRepo,
  ApprovalRepo,
  SessionFilter,
  SessionRepo,
} from './agents/storage.ts'
export type { AttachmentRepo, StoredAttachment } from './attachments/storage.ts'
export type {
  CommentRecord,
  CommentRepo,
  ReactionGroupRow,
  ReactionRepo,
  ReactionTarget,
} from './comments/storage.ts'
export type { ConnectionRecord } from './connectors/schemas.ts'
export type {
  ConnectionRepo,
  ConnectorSettingsRepo,
  LinkedItemHolder,
  LinkedItemRepo,
  RecordPropertyRepo,
  RecordRef,
} from './connectors/storage.ts'
export type { CycleFilter, CycleRecord, CycleRepo } from './cycles/storage.ts'
export type {
  DocumentFilter,
  DocumentRepo,
  DocumentSubscriberRepo,
  RankedDocument,
} from './documents/storage.ts'
export type {
  CustomFieldFilter,
  CustomFieldRepo,
  CustomFieldValueRepo,
  ValueHolder,
} from './fields/storage.ts'
export type {
  ActivityFilter,
  HubReadRepo,
  HubRecordType,
  HubRelation,
  HubSearchType,
  RelatedRecord,
  SearchHit,
  TypeaheadHit,
  TypeaheadType,
} from './hub/storage.ts'
export type { InitiativeMetricRepo } from './initiatives/metric/storage.ts'
export type {
  Ancestor,
  InitiativeFilter,
  InitiativeRecord,
  InitiativeRepo,
} from './initiatives/storage.ts'
export type { Bucket, CycleTimeBucket, InsightsRepo, ProjectWeekBuckets } from './insights/storage.ts'

export type {
  EventRepo,
  IdempotencyLookup,
  IdempotencyRecord,
  IdempotencyRepo,
  LockRepo,
  ProtocolSession,
  ProtocolSessionRepo,
  SecretRepo,
  Storage,
  Store,
  StoredSecret,
} from './kernel/storage.ts'
export type { LabelFilter, LabelRepo } from './labels/storage.ts'
export type { LinkRepo } from './links/storage.ts'
export type {
  DigestItem,
  DigestReader,
  MailCounts,
  MailRepo,
  OutboxMail,
} from './mail/storage.ts'
export type { PlanItemPatch, PlanItemRecord, PlanItemRepo } from './me/plan/storage.ts'
export type { FavoriteRecord, FavoriteRepo, PreferenceRepo, StoredPreferences } from './me/storage.ts'
export type {
  MuteRecord,
  MuteRepo,
  SubscriptionRecord,
  SubscriptionRepo,
} from './notifications/follow-storage.ts'
export type {
  DueTask,
  NotificationChange,
  NotificationRepo,
  NotificationSelection,
  NotificationSettingRepo,
  NotifierRepo,
} from './notifications/storage.ts'
export type {
  AccountTokenRecord,
  CodeRecord,
  ConsentRecord,
  GrantRecord,
  OAuthClientRecord,
  OAuthStore,
  RefreshTokenRecord,
  SessionRecord,
} from './oauth/store.ts'
export type { MemberRecord, MemberRepo, OrgRepo } from './orgs/storage.ts'
export type { InitiativeProgramRepo, InitiativeProgramRow } from './programs/initiatives/storage.ts'
export type {
  ProgramFilter,
  ProgramHistoryRecord,
  ProgramProjectRow,
  ProgramRecord,
  ProgramRepo,
} from './programs/storage.ts'
export type { Follower, FollowerRepo } from './projects/followers.ts'
export type {
  BlockingEdge,
  MilestoneRecord,
  MilestoneRepo,
  MilestoneTally,
  ProjectFilter,
  ProjectHistoryRecord,
  ProjectHistoryRepo,
  ProjectRecord,
  ProjectRelationRepo,
  ProjectRepo,
  ProjectRow,
  ProjectStatusRepo,
  SeededStatus,
} from './projects/storage.ts'
export type { CadenceParentType, UpdateSettingsRepo } from './projects/update-settings.ts'
export type {
  AutomationRuleRepo,
  AutomationRunRecord,
  AutomationRunRepo,
  RuleEngineRepo,
} from './rules/storage.ts'
export type { TaskAutomationRepo } from './tasks/automation/storage.ts'
export type { ConditionOp, TaskCondition, TaskFilterColumn } from './tasks/filter/condition.ts'
export type { TaskIntake, TaskIntakeRepo, TaskIntakeRequest } from './tasks/intake-storage.ts'
export type { StateTally } from './tasks/progress.ts'
export type { RankedTask, TaskList, TaskListKind, TaskPlaces, TaskRankRepo } from './tasks/rank/storage.ts'
export type {
  NewTaskRows,
  TaskDependencyRecord,
  TaskDependencyRepo,
  TaskFilter,
  TaskHistoryRecord,
  TaskHistoryRepo,
  TaskKeyRepo,
  TaskRecord,
  TaskRelationRecord,
  TaskRelationRepo,
  TaskRepo,
  TaskSort,
  TaskSubscriberRepo,
} from './tasks/storage.ts'
export type { TeamSettingsRepo } from './teams/settings-storage.ts'
export type { StateRepo, TeamRecord, TeamRepo } from './teams/storage.ts'
export type {
  DueRecurrence,
  DueReminder,
  RecurrenceFilter,
  RecurrenceRepo,
  ReminderRepo,
  TemplateFilter,
  TemplateRepo,
} from './templates/storage.ts'
export type {
  AllocationFilter,
  AllocationRecord,
  AllocationRepo,
  TimeEntryFilter,
  TimeEntryRecord,
  TimeEntryRepo,
  TimerRecord,
  TimerRepo,
} from './time/storage.ts'
export type {
  ExportCheckpoint,
  ExportRecord,
  ExportRepo,
  ImportRecord,
  ImportRepo,
} from './transfers/storage.ts'
export type { TriageSnoozeRepo } from './triage/storage.ts'
export type { DueCandidate, UpdateDueRepo, UpdateRequestRepo } from './updates/cadence-storage.ts'
export type { UpdateFilter, UpdateRepo } from './updates/storage.ts'
export type { AwayPatch, AwayRecord, AwayRepo } from './users/away.ts'
export type { ProfilePatch, User, UserProfile, UserRepo } from './users/storage.ts'
export type { ViewPreferenceRepo, ViewRepo } from './views/storage.ts'
