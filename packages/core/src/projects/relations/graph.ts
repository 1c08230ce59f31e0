import type { BlockingEdge } from '../storage.ts'

/** One side of a relation: a whole project, or one of its milestones. */
export interface RelationEnd {
  projectId: string
  milestoneId: string | null
}

/*
 * The dependency graph is a graph of moments: each project has a start and an end, each milestone is
 * one point between its project's start and end, and `A blocks B` is an edge from A's end to B's
 * start (end → start, the only kind). A link closes a cycle exactly when B's start already reaches
 * A's end. Milestones of one project are not ordered among themselves, so they may block each other.
 */
const endOf = (r: RelationEnd) => (r.milestoneId ? `m:${r.milestoneId}` : `e:${r.projectId}`)
const startOf = (r: RelationEnd) => (r.milestoneId ? `m:${r.milestoneId}` : `s:${r.projectId}`)
const recordOf = (node: string) => node.slice(2)

const source = (e: BlockingEdge): RelationEnd => ({ projectId: e.projectId, milestoneId: e.milestoneId })
const target = (e: BlockingEdge): RelationEnd => ({
  projectId: e.relatedProjectId,
  milestoneId: e.relatedMilestoneId,
})

/**
 * The cycle that `from blocks to` would close over the existing `edges`, as the ids of the records
 * along it (a project or milestone id), starting and ending at `from`'s record; null when it closes
 * none. Breadth-first, so the shortest cycle.
 */
export function blockingCycle(
  edges: readonly BlockingEdge[],
  from: RelationEnd,
  to: RelationEnd,
): string[] | null {
  const next = new Map<string, Set<string>>()
  const link = (a: string, b: string) => {
    const out = next.get(a) ?? new Set<string>()
    out.add(b)
    next.set(a, out)
  }
  const place = (r: RelationEnd) => {
    link(`s:${r.projectId}`, `e:${r.projectId}`)
    if (r.milestoneId) {
      link(`s:${r.projectId}`, `m:${r.milestoneId}`)
      link(`m:${r.milestoneId}`, `e:${r.projectId}`)
    }
  }
  for (const e of edges) {
    place(source(e))
    place(target(e))
    link(endOf(source(e)), startOf(target(e)))
  }
  place(from)
  place(to)
  const start = startOf(to)
  const goal = endOf(from)
  const cameFrom = new Map<string, string | null>([[start, null]])
  const queue = [start]
  while (queue.length > 0) {
    const at = queue.shift()!
    if (at === goal) {
      const nodes: string[] = []
      for (let n: string | null = at; n; n = cameFrom.get(n) ?? null) nodes.unshift(n)
      const records = [recordOf(goal), ...nodes.map(recordOf)]
      return records.filter((r, i) => i === 0 || records[i - 1] !== r)
    }
    for (const n of next.get(at) ?? []) {
      if (cameFrom.has(n)) continue
      cameFrom.set(n, at)
      queue.push(n)
    }
  }
  return null
}
