import type { AccessTables } from './access/tables.ts'
import type { AdminTables } from './admin/tables.ts'
import type { AgentsTables } from './agents/tables.ts'
import type { AttachmentsTables } from './attachments/tables.ts'
import type { CommentsTables } from './comments/tables.ts'
import type { ConnectorsTables } from './connectors/tables.ts'
import type { CyclesTables } from './cycles/tables.ts'
import type { DocumentsTables } from './documents/tables.ts'
import type { CustomFieldsTables } from './fields/tables.ts'
import type { InitiativesTables } from './initiatives/tables.ts'
import type { KernelTables } from './kernel/tables.ts'
import type { LabelsTables } from './labels/tables.ts'
import type { LinksTables } from './links/tables.ts'
import type { MailTables } from './mail/tables.ts'
import type { MeTables } from './me/tables.ts'
import type { NotificationsTables } from './notifications/tables.ts'
import type { OrgsTables } from './orgs/tables.ts'
import type { ProgramsTables } from './programs/tables.ts'
import type { ProjectsTables } from './projects/tables.ts'
import type { RulesTables } from './rules/tables.ts'
import type { TasksTables } from './tasks/tables.ts'
import type { TeamsTables } from './teams/tables.ts'
import type { TemplatesTables } from './templates/tables.ts'
import type { TimeTables } from './time/tables.ts'
import type { TransfersTables } from './transfers/tables.ts'
import type { TriageTables } from './triage/tables.ts'
import type { UpdatesTables } from './updates/tables.ts'
import type { UsersTables } from './users/tables.ts'
import type { ViewsTables } from './views/tables.ts'

/**
 * Table and column names as queries see them; CamelCasePlugin maps them to snake_case in SQL. Each
 * group declares its tables beside its repos (`<group>/tables.ts`); a new group adds one line here.
 */
export interface Database
  extends KernelTables,
    UsersTables,
    OrgsTables,
    TeamsTables,
    TasksTables,
    AccessTables,
    AdminTables,
    AgentsTables,
    CyclesTables,
    TriageTables,
    ProjectsTables,
    UpdatesTables,
    LinksTables,
    InitiativesTables,
    DocumentsTables,
    CustomFieldsTables,
    TemplatesTables,
    TimeTables,
    ProgramsTables,
    LabelsTables,
    CommentsTables,
    AttachmentsTables,
    ConnectorsTables,
    NotificationsTables,
    MailTables,
    MeTables,
    ViewsTables,
    RulesTables,
    TransfersTables {}

export type Dialect = 'sqlite' | 'postgres'
