import { containersAbove } from '../access/containers-above.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    project: true
    milestone: true
    project_relation: true
    /** A relation seen from both its ends: a capability on either project counts. */
    project_relation_ends: true
  }
}

/**
 * A project is held by the org, by every team it spans, by itself (a grant on the project), and by
 * the programs and initiatives holding it; a milestone by its project's holders.
 */
async function projectContainers(store: Store, orgId: OrgId, id: string): Promise<Container[] | null> {
  const project = await store.projects.get(orgId, id as never, UNSCOPED)
  if (!project) return null
  return [
    { type: 'org', id: orgId },
    ...project.teamIds.map((t) => ({ type: 'team' as const, id: t })),
    { type: 'project', id: project.id },
    ...(await containersAbove(store, orgId, { type: 'project', id: project.id })),
  ]
}

export const projectTargets = {
  project: { name: 'Project', containers: projectContainers },
  milestone: {
    name: 'Milestone',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const milestone = await store.milestones.get(orgId, id as never)
      return milestone ? projectContainers(store, orgId, milestone.projectId) : null
    },
  },
  // A relation is written through its source project.
  project_relation: {
    name: 'Project relation',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const relation = await store.projectRelations.get(orgId, id as never)
      return relation ? projectContainers(store, orgId, relation.projectId) : null
    },
  },
  project_relation_ends: {
    name: 'Project relation',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const relation = await store.projectRelations.get(orgId, id as never)
      if (!relation) return null
      const ends = await Promise.all(
        [relation.projectId, relation.relatedProjectId].map((p) => projectContainers(store, orgId, p)),
      )
      return ends.flatMap((containers) => containers ?? [])
    },
  },
} satisfies Record<string, TargetResolver>
