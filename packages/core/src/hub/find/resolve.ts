import type { Static } from '@sinclair/typebox'
import {
  type DocumentId,
  ID_PREFIXES,
  type InitiativeId,
  isId,
  type OrgId,
  type ProjectId,
  type TaskId,
} from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { StreamReader } from '../../streams/readers.ts'
import { fanOut } from '../fanout.ts'
import type { ResolvedRecord } from '../schemas.ts'

type Resolved = Static<typeof ResolvedRecord>

/** A task key: the team key, a dash, the number (`ENG-42`), case-insensitive. */
const TASK_KEY = /^[A-Za-z][A-Za-z0-9]{0,9}-[1-9][0-9]{0,9}$/
const ULID = '[0-9A-HJKMNP-TV-Z]{26}'
const BRANDS = ['TaskId', 'ProjectId', 'InitiativeId', 'DocumentId'] as const
/** What `ref` may be, as the schema's pattern: a task key or an id of one of the four brands. */
export const RESOLVABLE_REF = `^(?:${TASK_KEY.source.slice(1, -1)}|(?:${BRANDS.map((b) => ID_PREFIXES[b]).join('|')})_${ULID})$`

/**
 * What a reference names in each of the caller's workspaces, where they may view it: a task key
 * (current or previous; each workspace has its own), or a task, project, initiative or document id.
 * One look-up per membership through the caller's read scope there; a record they cannot view is
 * simply not found.
 */
export async function hubResolve(ctx: OperationContext, ref: string) {
  const lookup = lookupFor(ref.trim())
  const { results, partial } = await fanOut(ctx, (reader) => lookup(ctx, reader))
  return {
    data: results.flatMap((r) => (r.value ? [r.value] : [])),
    partial,
  }
}

type Lookup = (ctx: OperationContext, reader: StreamReader) => Promise<Resolved | null>

function lookupFor(ref: string): Lookup {
  const found = (
    orgId: OrgId,
    type: Resolved['type'],
    id: string,
    title: string,
    key: string | null = null,
  ) => ({ orgId, type, id, key, title }) satisfies Resolved
  if (TASK_KEY.test(ref)) {
    return async (ctx, { orgId, scope }) => {
      const id = await ctx.store.taskKeys.resolve(orgId, ref)
      const task = id ? await ctx.store.tasks.get(orgId, id, scope) : null
      return task ? found(orgId, 'task', task.id, task.title, task.key) : null
    }
  }
  if (isId('TaskId', ref)) {
    return async (ctx, { orgId, scope }) => {
      const task = await ctx.store.tasks.get(orgId, ref as TaskId, scope)
      return task ? found(orgId, 'task', task.id, task.title, task.key) : null
    }
  }
  if (isId('ProjectId', ref)) {
    return async (ctx, { orgId, scope }) => {
      const project = await ctx.store.projects.get(orgId, ref as ProjectId, scope)
      return project ? found(orgId, 'project', project.id, project.name) : null
    }
  }
  if (isId('InitiativeId', ref)) {
    return async (ctx, { orgId, scope }) => {
      const initiative = await ctx.store.initiatives.get(orgId, ref as InitiativeId, scope)
      return initiative ? found(orgId, 'initiative', initiative.id, initiative.name) : null
    }
  }
  if (isId('DocumentId', ref)) {
    return async (ctx, { orgId, scope }) => {
      const document = await ctx.store.documents.get(orgId, ref as DocumentId, scope)
      return document ? found(orgId, 'document', document.id, document.title) : null
    }
  }
  throw new ProblemError(
    'validation_failed',
    'Give a task key (`ENG-42`) or a task, project, initiative or document id.',
    {
      errors: [{ pointer: '/query/ref', message: 'Not a task key or a known id' }],
    },
  )
}
