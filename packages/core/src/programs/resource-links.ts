import type { ProgramId } from '../kernel/ids.ts'
import type { AnyOperation } from '../kernel/operation.ts'
import { parentLinkOperations } from '../links/operations.ts'
import type { LinkParent } from '../links/parents.ts'
import { programPath } from './operations.ts'
import { requireProgram } from './service.ts'
import { programContainers } from './targets.ts'

/** URL resources of programs: the links group's storage, item operations and events, with a program as the parent (the hook `links.program`). */
export const programLinkParent: LinkParent = {
  name: 'Program',
  require: (ctx, id) => requireProgram(ctx, id as ProgramId),
  // Org-level, as the program's own events (readers with org-wide view see every program).
  eventTeam: async () => null,
  containers: (store, orgId, id) => programContainers(store, orgId, id),
}

export const programResourceLinkOperations: AnyOperation[] = parentLinkOperations({
  parentType: 'program',
  plural: 'programs',
  tag: 'Programs',
  itemPath: programPath,
  idParam: 'programId',
  idPrefix: 'prg',
})
