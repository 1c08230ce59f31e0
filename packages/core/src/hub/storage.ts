import type { StoredEvent } from '../kernel/events/events.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'

/** What the hub's search looks through, each in its database's full-text index. */
export const HUB_SEARCH_TYPES = ['task', 'project', 'initiative', 'document', 'comment', 'update'] as const
export type HubSearchType = (typeof HUB_SEARCH_TYPES)[number]

/** One match in one workspace, with its engine's rank (higher is better; comparable within the org). */
export interface SearchHit {
  type: HubSearchType
  id: string
  /** Title or name; null for comments and updates, which have only a body. */
  title: string | null
  body: string
  /** The task's key (`ENG-42`); null for the other types. */
  key: string | null
  /** What holds it: a task's team, a comment's or update's subject, a document's holder. */
  parentType: string | null
  parentId: string | null
  updatedAt: string
  rank: number
}

/** The filters of the hub's activity read in one workspace. */
export interface ActivityFilter {
  kinds?: readonly string[]
  actorId?: string
  resourceId?: string
}

/** The records a portfolio holds, and how the reader relates to one. */
export const HUB_RECORD_TYPES = ['project', 'program', 'initiative'] as const
export type HubRecordType = (typeof HUB_RECORD_TYPES)[number]
/** `lead`: a project's lead or a program's or initiative's owner; `member`; `follower`. */
export const HUB_RELATIONS = ['lead', 'member', 'follower'] as const
export type HubRelation = (typeof HUB_RELATIONS)[number]

/** A project, program or initiative the reader leads, belongs to or follows. */
export interface RelatedRecord {
  type: HubRecordType
  id: string
  relations: HubRelation[]
}

/** What `hub.typeahead` looks through, by name (tasks by key). */
export const TYPEAHEAD_TYPES = [
  'person',
  'team',
  'project',
  'program',
  'initiative',
  'milestone',
  'view',
  'task',
] as const
export type TypeaheadType = (typeof TYPEAHEAD_TYPES)[number]

/** A name that begins with the prefix, in one workspace. */
export interface TypeaheadHit {
  type: TypeaheadType
  id: string
  /** The name, or a task's title. */
  name: string
  /** A task's key (`ENG-42`), a team's key; null for the others. */
  key: string | null
}

/**
 * The hub's per-workspace reads. Each takes one org and the reader's scope there, with the
 * permission predicate in the query: the hub runs one of these per membership and merges in code.
 */
export interface HubReadRepo {
  /** Records matching every term as a word prefix, best first (rank desc, then id desc). */
  search(
    orgId: OrgId,
    terms: readonly string[],
    types: readonly HubSearchType[],
    scope: ReadScope,
    page: PageRequest<'rank'>,
  ): Promise<SearchHit[]>
  /** Events the reader may see, newest first, strictly before `beforeSeq` (null: from the head). */
  activity(
    orgId: OrgId,
    scope: ReadScope,
    filter: ActivityFilter,
    beforeSeq: number | null,
    limit: number,
  ): Promise<StoredEvent[]>
  /**
   * Unarchived projects, programs and initiatives of `types` that the member leads (or owns), is a
   * member of, or follows, and the scope can view; by type, then id; at most `limit` of each type.
   */
  related(
    orgId: OrgId,
    memberId: string,
    types: readonly HubRecordType[],
    scope: ReadScope,
    limit: number,
  ): Promise<RelatedRecord[]>
  /**
   * Unarchived records of `types` whose name begins with `prefix` (ignoring case; tasks: whose key
   * does, e.g. `ENG-4`), among those the member may view there; by name, then id; at most `limit`
   * of each type.
   */
  typeahead(
    orgId: OrgId,
    prefix: string,
    types: readonly TypeaheadType[],
    viewer: { memberId: string; scope: ReadScope },
    limit: number,
  ): Promise<TypeaheadHit[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** The hub's permission-scoped reads of one workspace. */
    hubReads: HubReadRepo
  }
}
