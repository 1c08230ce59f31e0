import type { OrgId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { KeysetPosition, PageRequest } from '../kernel/pagination.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { labelNameKey } from '../labels/schemas.ts'

/** The first line of every export: what follows and where it came from. */
export const EXPORT_FORMAT = 'workgraph.export.v1'

/** A record of one type, as a page of the export reads it. */
interface Section {
  type: string
  /**
   * Up to `limit` records after `after`, in the section's keyset order, each with its position; a
   * null record only moves the position on (a team without states).
   */
  read(
    ctx: OperationContext,
    orgId: OrgId,
    after: KeysetPosition | null,
    limit: number,
  ): Promise<Array<{ position: KeysetPosition; record: object | null }>>
}

const asc = <S extends string>(sort: S, after: KeysetPosition | null, limit: number): PageRequest<S> => ({
  sort,
  direction: 'asc',
  after,
  limit,
})

/**
 * The sections of an export, in the order an import replays them: every record's references point
 * at records of an earlier section (members and teams before states, labels and tasks), and tasks
 * come by creation time, so a parent precedes its subtasks. Each line is the record as the API
 * answers it, with `type` first.
 */
export const SECTIONS: readonly Section[] = [
  {
    type: 'workspace',
    async read(ctx, _orgId, after) {
      if (after) return []
      const org = ctx.org!
      const record = { format: EXPORT_FORMAT, orgId: org.id, name: org.name, exportedAt: ctx.now }
      return [{ position: { value: null, id: org.id }, record }]
    },
  },
  {
    type: 'member',
    async read(ctx, orgId, after, limit) {
      const rows = await ctx.store.members.list(orgId, {}, asc('id', after, limit))
      return rows.slice(0, limit).map((m) => ({ position: { value: m.id, id: m.id }, record: m }))
    },
  },
  {
    type: 'team',
    async read(ctx, orgId, after, limit) {
      const rows = await ctx.store.teams.list(orgId, { archived: null }, asc('id', after, limit), UNSCOPED)
      return rows.slice(0, limit).map((t) => ({ position: { value: t.id, id: t.id }, record: t }))
    },
  },
  {
    // Keyed by team: one page holds the states of up to `limit` teams (a team has a handful).
    type: 'workflow_state',
    async read(ctx, orgId, after, limit) {
      const teams = await ctx.store.teams.list(orgId, { archived: null }, asc('id', after, limit), UNSCOPED)
      const out: Array<{ position: KeysetPosition; record: object | null }> = []
      for (const team of teams.slice(0, limit)) {
        const states = await ctx.store.states.listForTeam(orgId, team.id as TeamId, { includeArchived: true })
        for (const s of states) out.push({ position: { value: team.id, id: team.id }, record: s })
        if (states.length === 0) out.push({ position: { value: team.id, id: team.id }, record: null })
      }
      return out
    },
  },
  {
    type: 'label',
    async read(ctx, orgId, after, limit) {
      const rows = await ctx.store.labels.list(orgId, { archived: null }, asc('name', after, limit), UNSCOPED)
      return rows
        .slice(0, limit)
        .map((l) => ({ position: { value: labelNameKey(l.name), id: l.id }, record: l }))
    },
  },
  {
    type: 'task',
    async read(ctx, orgId, after, limit) {
      const rows = await ctx.store.tasks.list(
        orgId,
        { archived: null },
        asc('createdAt', after, limit),
        UNSCOPED,
      )
      return rows.slice(0, limit).map((t) => ({ position: { value: t.createdAt, id: t.id }, record: t }))
    },
  },
]

/** The record types of an export, in order (docs/exports-imports.md). */
export const EXPORT_TYPES = SECTIONS.map((s) => s.type)
