import { type Static, Type } from '@sinclair/typebox'
import type { LabelId, MemberId, UserId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { LabelName, labelNameKey } from '../../labels/schemas.ts'
import type { StreamReader } from '../../streams/readers.ts'
import type { TaskCondition } from '../../tasks/filter/condition.ts'
import { checkFilterBounds, resolveTaskFilter } from '../../tasks/filter/filter.ts'
import {
  BlockedFlag,
  comparator,
  DateComparator,
  InstantComparator,
  IsNull,
  listOf,
  NumberComparator,
  PriorityComparator,
  SearchText,
  StateCategoryComparator,
  type TaskFilterInput,
} from '../../tasks/filter/schema.ts'

const Email = Type.String({ format: 'email', maxLength: 320 })

/**
 * The task filter of `hub.tasks.query`: the parts of `TaskFilter` that mean the same in every
 * workspace (categories, priorities, numbers, dates, text), with people by email and labels by name
 * instead of ids, which belong to one workspace. Resolved per workspace by `resolveHubFilter`.
 */
export const HubTaskFilterSchema = Type.Recursive(
  (This) =>
    Type.Object(
      {
        and: Type.Optional(Type.Array(This, { minItems: 1, maxItems: 20, description: 'Every one holds.' })),
        or: Type.Optional(
          Type.Array(This, { minItems: 1, maxItems: 20, description: 'At least one holds.' }),
        ),
        not: Type.Optional(This),
        stateCategory: Type.Optional(StateCategoryComparator),
        priority: Type.Optional(PriorityComparator),
        assigneeEmail: Type.Optional(
          comparator(
            { eq: Email, neq: Email, in: listOf(Email), nin: listOf(Email), null: IsNull },
            'The assignee by email, in each workspace the member with that email: `eq`, `neq`, `in`, `nin`, `null` (unassigned). `neq` and `nin` also match unassigned tasks.',
          ),
        ),
        creatorEmail: Type.Optional(
          comparator(
            { eq: Email, in: listOf(Email) },
            'The member who created the task, by email: `eq`, `in`.',
          ),
        ),
        labelNames: Type.Optional(
          comparator(
            { in: listOf(LabelName), nin: listOf(LabelName), all: listOf(LabelName), null: IsNull },
            'Labels by name, ignoring case (a team label or a workspace label of that name): `in` carries one of them, `nin` none, `all` every one; `null: true` carries no label.',
          ),
        ),
        estimate: Type.Optional(NumberComparator),
        dueDate: Type.Optional(DateComparator),
        startDate: Type.Optional(DateComparator),
        createdAt: Type.Optional(InstantComparator),
        updatedAt: Type.Optional(InstantComparator),
        startedAt: Type.Optional(InstantComparator),
        completedAt: Type.Optional(InstantComparator),
        canceledAt: Type.Optional(InstantComparator),
        search: Type.Optional(SearchText),
        blocked: Type.Optional(BlockedFlag),
      },
      {
        additionalProperties: false,
        minProperties: 1,
        description:
          'A task filter for every workspace: as `TaskFilter`, with people by email and labels by name instead of ids (docs/filters.md, "Across workspaces"). Same bounds.',
      },
    ),
  { $id: 'HubTaskFilter' },
)
export type HubTaskFilterInput = Static<typeof HubTaskFilterSchema>

type Node = Record<string, unknown>
type Comparator = Record<string, unknown>

/** Matches no task (an email or label name nobody has in this workspace). */
const NOTHING: TaskCondition = { kind: 'ids', ids: [] }

/** The users the filter names by email, looked up once for every workspace (emails are global). */
export async function usersByEmail(ctx: OperationContext, filter: HubTaskFilterInput) {
  const emails = new Set<string>()
  const walk = (n: Node) => {
    for (const [key, value] of Object.entries(n)) {
      if (key === 'and' || key === 'or') for (const c of value as Node[]) walk(c)
      else if (key === 'not') walk(value as Node)
      else if (key === 'assigneeEmail' || key === 'creatorEmail') {
        for (const [op, v] of Object.entries(value as Comparator))
          if (op !== 'null') for (const e of [v].flat() as string[]) emails.add(e.toLowerCase())
      }
    }
  }
  checkFilterBounds(filter as TaskFilterInput, '/body/filter')
  walk(filter as Node)
  const users = new Map<string, UserId | null>()
  for (const email of emails) users.set(email, (await ctx.store.users.getByEmail(email))?.id ?? null)
  return users
}

/**
 * The hub filter as the condition storage runs in one workspace: emails become that workspace's
 * members, label names its labels the reader may view; the other keys resolve as `tasks.query`'s.
 */
export async function resolveHubFilter(
  ctx: OperationContext,
  reader: StreamReader,
  filter: HubTaskFilterInput,
  users: Map<string, UserId | null>,
): Promise<TaskCondition> {
  const members = new Map<string, MemberId | null>()
  const memberOf = async (email: string) => {
    const key = email.toLowerCase()
    if (!members.has(key)) {
      const userId = users.get(key)
      const member = userId ? await ctx.store.members.findByUser(reader.orgId, userId) : null
      members.set(key, (member?.id as MemberId | undefined) ?? null)
    }
    return members.get(key) ?? null
  }
  let labels: Map<string, LabelId[]> | null = null
  const labelsNamed = async (name: string) => {
    labels ??= await labelIdsByName(ctx, reader)
    return labels.get(labelNameKey(name)) ?? []
  }
  const membersOf = async (emails: unknown) => {
    const ids: MemberId[] = []
    for (const e of [emails].flat() as string[]) {
      const id = await memberOf(e)
      if (id) ids.push(id)
    }
    return ids
  }

  const node = async (n: Node, at: string): Promise<TaskCondition> => {
    const parts: TaskCondition[] = []
    for (const [key, value] of Object.entries(n)) {
      const here = `${at}/${key}`
      if (key === 'and' || key === 'or') {
        const of: TaskCondition[] = []
        for (const [i, c] of (value as Node[]).entries()) of.push(await node(c, `${here}/${i}`))
        parts.push({ kind: key, of })
      } else if (key === 'not') parts.push({ kind: 'not', of: await node(value as Node, here) })
      else if (key === 'assigneeEmail' || key === 'creatorEmail') {
        const column = key === 'assigneeEmail' ? 'assigneeId' : 'creatorId'
        for (const [op, v] of Object.entries(value as Comparator)) {
          if (op === 'null') {
            const none: TaskCondition = { kind: 'column', column, op: 'null', value: null }
            parts.push(v ? none : { kind: 'not', of: none })
            continue
          }
          const ids = await membersOf(v)
          const holds: TaskCondition = { kind: 'column', column, op: 'in', value: ids }
          parts.push(op === 'neq' || op === 'nin' ? { kind: 'not', of: holds } : holds)
        }
      } else if (key === 'labelNames') parts.push(...(await labelConditions(value as Comparator)))
      // The keys that mean the same everywhere resolve exactly as `tasks.query` resolves them.
      else parts.push(await resolveTaskFilter(ctx, { [key]: value } as TaskFilterInput, at))
    }
    return parts.length === 1 ? parts[0]! : { kind: 'and', of: parts }
  }

  const labelConditions = async (c: Comparator): Promise<TaskCondition[]> => {
    const any = async (names: string[]): Promise<TaskCondition> => {
      const ids = (await Promise.all(names.map(labelsNamed))).flat()
      return ids.length ? { kind: 'labels', op: 'any', ids } : NOTHING
    }
    const out: TaskCondition[] = []
    if (c.in) out.push(await any(c.in as string[]))
    if (c.nin) out.push({ kind: 'not', of: await any(c.nin as string[]) })
    if (c.all) for (const name of c.all as string[]) out.push(await any([name]))
    if (c.null !== undefined) {
      const none: TaskCondition = { kind: 'labels', op: 'none', ids: [] }
      out.push(c.null ? none : { kind: 'not', of: none })
    }
    return out
  }

  return node(filter as Node, '/body/filter')
}

/** The workspace's labels the reader may view, archived ones too (tasks keep them), by name key. */
async function labelIdsByName(ctx: OperationContext, reader: StreamReader) {
  const byName = new Map<string, LabelId[]>()
  let after: { value: string; id: string } | null = null
  for (;;) {
    const page = await ctx.store.labels.list(
      reader.orgId,
      { archived: null },
      { sort: 'name', direction: 'asc', after, limit: 200 },
      reader.scope,
    )
    for (const label of page) {
      const key = labelNameKey(label.name)
      byName.set(key, [...(byName.get(key) ?? []), label.id as LabelId])
    }
    if (page.length < 200) return byName
    const last = page[page.length - 1]!
    after = { value: labelNameKey(last.name), id: last.id }
  }
}
