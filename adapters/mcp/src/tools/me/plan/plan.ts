import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError } from '@workgraph/core'
import { fieldOf, object, TaskRef, Workspace } from '../../schema.ts'
import type { ToolCall, ToolDefinition } from '../../types.ts'

const DateArg = Type.Optional(
  Type.String({
    format: 'date',
    pattern: '^\\d{4}-\\d{2}-\\d{2}$',
    description: 'Default: today.',
  }),
)

/** Today as the person counts days: in their profile's time zone, else UTC. */
async function today(call: ToolCall): Promise<string> {
  const me = await call.run<{ user: { timeZone: string | null } }>('me.get', {})
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: me.user.timeZone ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date())
}

/** An item as an assistant reads it: hidden tasks stay hidden. */
const itemRow = (i: any) => ({
  id: i.id,
  position: i.position,
  ...(i.kind === 'text'
    ? { text: i.text }
    : i.task.hidden
      ? { task: { hidden: true, reason: i.task.reason } }
      : {
          task: {
            workspace: i.task.orgName,
            key: i.task.key,
            title: i.task.title,
            state: i.task.stateCategory,
            dueDate: i.task.dueDate,
          },
        }),
  timeBlock: i.timeBlock,
  estimateMinutes: i.estimateMinutes,
  done: i.doneAt !== null,
  ...(i.carryCount ? { carriedFrom: i.carriedFrom, carryCount: i.carryCount } : {}),
})

async function day(call: ToolCall, date: string) {
  const plan = await call.run<{ days: Array<{ items: any[] }> }>('me.dailyPlan.list', {
    query: { from: date, to: date },
  })
  return plan.days[0]!.items
}

/** The day's item for `ref`: an item id, or the key or id of a task on the day. */
function itemFor(items: any[], ref: string): any {
  const upper = ref.toUpperCase()
  const matches = items.filter(
    (i) => i.id === ref || (i.task && !i.task.hidden && (i.task.id === ref || i.task.key === upper)),
  )
  if (matches.length === 1) return matches[0]
  throw new ProblemError(
    matches.length ? 'conflict' : 'not_found',
    matches.length
      ? `${ref} names tasks of several workspaces on the day; use the item id.`
      : `No item for ${ref} on the day's plan.`,
  )
}

const Refs = (what: string) =>
  Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
      maxItems: 50,
      description: `${what}: item ids or task keys.`,
    }),
  )

/** The personal daily plan over MCP (study §2.8: `my_day`, `plan_day`). */
export const planTools: ToolDefinition[] = [
  {
    name: 'my_day',
    title: 'My day',
    description:
      'Your plan for a day (default today) across workspaces, then suggestions: overdue, due today, unblocked, in cycle, due soon.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['me.get', 'me.dailyPlan.list', 'me.dailyPlan.suggestions'],
    input: object({ date: DateArg }),
    async run(call, args) {
      const date = args.date ?? (await today(call))
      const items = await day(call, date)
      const suggested = await call.run<{ data: any[]; partial: any[] }>('me.dailyPlan.suggestions', {
        params: { date },
        query: { limit: 20 },
      })
      return {
        date,
        items: items.map(itemRow),
        suggestions: suggested.data.map((s) => ({
          reason: s.reason,
          workspace: s.task.orgName,
          key: s.task.key,
          title: s.task.title,
          dueDate: s.task.dueDate,
        })),
        ...(suggested.partial.length ? { partial: suggested.partial } : {}),
      }
    },
  },
  {
    name: 'plan_day',
    title: 'Plan my day',
    description:
      "Changes a day's plan: `carry_over` unfinished items, `add` tasks, `add_text` items, `complete`/`reopen`/`remove` items (by id or task key).",
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'me.get',
      'me.dailyPlan.list',
      'me.dailyPlan.carryOver',
      'me.dailyPlan.items.create',
      'me.dailyPlan.items.complete',
      'me.dailyPlan.items.reopen',
      'me.dailyPlan.items.delete',
    ],
    input: object({
      date: DateArg,
      workspace: Workspace,
      carry_over: Type.Optional(
        Type.Boolean({ description: 'Move unfinished items of earlier days first.' }),
      ),
      add: Type.Optional(Type.Array(TaskRef, { maxItems: 50, description: 'Tasks to add, by key or id.' })),
      add_text: Type.Optional(
        Type.Array(fieldOf('me.dailyPlan.items.create', 'body', 'text'), {
          maxItems: 50,
          description: 'Free-text items to add.',
        }),
      ),
      complete: Refs('Items to mark done'),
      reopen: Refs('Items to reopen'),
      remove: Refs('Items to take off the plan'),
    }),
    async run(call, args) {
      const date = args.date ?? (await today(call))
      if (args.carry_over) await call.run('me.dailyPlan.carryOver', { params: { date } })
      let orgId: OrgId | null = null
      for (const ref of (args.add ?? []) as string[]) {
        orgId ??= (await call.workspace(args.workspace)).id
        const task = /^task_/.test(ref) ? { orgId, id: ref } : { orgId, key: ref }
        await call.run('me.dailyPlan.items.create', { params: { date }, body: { task } })
      }
      for (const text of (args.add_text ?? []) as string[])
        await call.run('me.dailyPlan.items.create', { params: { date }, body: { text } })
      for (const [field, op] of [
        ['complete', 'me.dailyPlan.items.complete'],
        ['reopen', 'me.dailyPlan.items.reopen'],
        ['remove', 'me.dailyPlan.items.delete'],
      ] as const) {
        for (const ref of (args[field] ?? []) as string[]) {
          const item = itemFor(await day(call, date), ref)
          await call.run(op, { params: { planItemId: item.id } })
        }
      }
      return { date, items: (await day(call, date)).map(itemRow) }
    },
  },
]
