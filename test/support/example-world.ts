import { type AnyOperation, exampleId } from '@workgraph/core'
import type { Ids } from './sample-world.ts'

/**
 * The sample world's record behind each example id, per id prefix in rank order: `exampleId('task')`
 * is the sample task, `exampleId('task', 1)` the other task, and so on. Write a request example with
 * the rank of the record it needs (a blocker is another task: rank 1), and the contract tests send
 * it with these records in place (`inWorld`). Names ending in `Ids` hold comma-separated lists (every
 * state of the sample team, in order): their records follow the named ones.
 */
export const EXAMPLE_RANKS: Record<string, readonly string[]> = {
  org: ['orgId'],
  team: ['teamId', 'otherTeamId'],
  wfs: ['stateId', 'stateIds'],
  task: ['taskId', 'otherTaskId', 'blockerId', 'relatedTaskId', 'triageTaskId'],
  mem: ['memberId', 'ownerMemberId'],
  agt: ['agentId'],
  ases: ['agentSessionId'],
  apr: ['approvalRequestId'],
  apol: ['policyId'],
  inv: ['invitationId'],
  grt: ['grantId'],
  cyc: ['cycleId', 'completedCycleId'],
  lbl: ['labelId', 'otherLabelId', 'orgLabelId'],
  cmt: ['commentId'],
  rct: ['reactionId', 'commentReactionId', 'projectReactionId', 'updateReactionId'],
  pst: ['startedStatusId', 'projectStatusIds'],
  proj: ['projectId', 'otherProjectId', 'orderedProjectId', 'programProjectIds', 'orderedProjectIds'],
  mile: ['milestoneId', 'otherMilestoneId'],
  prel: ['relationId'],
  upd: ['updateId'],
  view: ['viewId'],
  ini: ['initiativeId', 'orderedInitiativeId'],
  lnk: ['linkId', 'otherLinkId', 'resourceLinkId'],
  doc: ['documentId'],
  dver: ['versionId'],
  att: ['attachmentId'],
  dom: ['domainId'],
  exp: ['exportId'],
  imp: ['importId'],
  cf: ['fieldId'],
  cfo: ['optionId', 'otherOptionId'],
  tmpl: ['templateId'],
  rcur: ['recurrenceId'],
  rmd: ['reminderId'],
  tme: ['entryId'],
  alc: ['allocationId'],
  prg: ['programId'],
  conn: ['connectionId'],
  litm: ['linkedItemId', 'projectLinkedItemId'],
  ntf: ['notificationId', 'otherNotificationId'],
  nsub: ['ruleId'],
  nmut: ['muteId'],
  rule: ['automationRuleId'],
}

/** The records of one prefix in rank order: named ones first, then those of the lists not yet named. */
export function ranked(prefix: string, ids: Ids): string[] {
  const out: string[] = []
  for (const name of EXAMPLE_RANKS[prefix] ?? []) {
    const values = name.endsWith('Ids') ? (ids[name]?.split(',') ?? []) : [ids[name]]
    for (const value of values) if (value && !out.includes(value)) out.push(value)
  }
  return out
}

const EXAMPLE_ID = /^([a-z]+)_01JD3Q2R4S5T6V7W8X9YZABC[A-Z]E$/

/** `example` with every example id, in values and keys, replaced by `swap(prefix, rank)`. */
export function swapExampleIds<T>(
  example: T,
  swap: (prefix: string, rank: number, value: string) => string,
): T {
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const prefix = EXAMPLE_ID.exec(value)?.[1]
      if (!prefix) return value
      // Ranks are few (`exampleId` throws past the last): find the one that gives this id.
      for (let rank = 0; ; rank++) {
        let id: string
        try {
          id = exampleId(prefix, rank)
        } catch {
          return value
        }
        if (id === value) return swap(prefix, rank, value)
      }
    }
    if (Array.isArray(value)) return value.map(walk)
    // Keys too: custom field values are keyed by the field's id.
    if (value && typeof value === 'object')
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [walk(k), walk(v)]))
    return value
  }
  return walk(example) as T
}

/**
 * `example` with every example id replaced by the sample world's record of the same prefix and rank.
 * An example id the world has no record for throws: the example names something no test can send.
 */
export function inWorld<T>(example: T, ids: Ids): T {
  return swapExampleIds(example, (prefix, rank, value) => {
    const record = ranked(prefix, ids)[rank]
    if (record === undefined)
      throw new Error(
        `${value}: the sample world has no ${prefix} of that rank (test/support/example-world.ts)`,
      )
    return record
  })
}

/** The request example of `op`, as sent to the sample world `ids`. */
export function exampleBody(op: AnyOperation, ids: Ids): unknown {
  if (op.examples?.request === undefined) throw new Error(`${op.id} takes a body and has no request example`)
  return inWorld(op.examples.request, ids)
}
