import type { Engine, NameKind, OrgId, Principal, RawInput } from '@workgraph/core'
import { matchName, ProblemError } from '@workgraph/core'
import type { ToolCall } from './types.ts'

interface OrgRow {
  id: OrgId
  name: string
  slug: string
}

/** A tool call's view of the engine, as one principal; every operation goes through `engine.execute`. */
export function createToolCall(engine: Engine, principal: Principal): ToolCall {
  let orgs: Promise<OrgRow[]> | undefined
  const call: ToolCall = {
    engine,
    principal,
    async run(operationId: string, input: RawInput) {
      return (await engine.execute(operationId, input, principal)).body as any
    },
    async workspace(ref) {
      orgs ??= call.run('orgs.list', { query: { limit: 200 } }).then((page) => page.data as OrgRow[])
      const list = await orgs
      if (ref === undefined && list.length === 1) return list[0]!
      if (ref === undefined) {
        const candidates = list.map((o) => ({ id: o.id, label: `${o.name} (${o.slug})` }))
        throw new ProblemError(
          list.length ? 'ambiguous_name' : 'unknown_name',
          list.length
            ? `You belong to ${list.length} workspaces; name one in \`workspace\`: ${candidates.map((c) => c.label).join(', ')}.`
            : 'You belong to no workspace yet: create one with `create_workspace`, or open the link of an invitation to join one.',
          { extensions: { kind: 'workspace', candidates } },
        )
      }
      return matchName(
        'workspace',
        ref,
        list.map((o) => ({ value: o, id: o.id, names: [o.slug, o.name], label: `${o.name} (${o.slug})` })),
        '/arguments/workspace',
      )
    },
    async resolve(orgId: OrgId, kind: NameKind, name: string, team?: string, options = { archived: false }) {
      const found = await call.run('names.resolve', {
        params: { orgId },
        query: { kind, name, ...(team ? { team } : {}), ...(options.archived ? { archived: true } : {}) },
      })
      return found.id as string
    },
  }
  return call
}
