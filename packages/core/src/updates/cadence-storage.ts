import type { Weekday } from '../cycles/schemas.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { UpdateCadence } from '../projects/schemas.ts'
import type { UpdateRequest } from './cadence-schemas.ts'
import type { UpdateSubjectType } from './schemas.ts'

/** An open record that may owe a status update, as `updates.due` needs it. */
export interface DueCandidate {
  subjectType: UpdateSubjectType
  subjectId: string
  name: string
  ownerId: string | null
  createdAt: string
  lastUpdateAt: string | null
  /** A project's own cadence; programs and initiatives have none and follow the org default. */
  cadence: { updateCadence: UpdateCadence; updateWeekday: Weekday } | null
}

export interface UpdateDueRepo {
  /**
   * The unarchived, open records of the org the scope can view: projects whose status is neither
   * completed nor canceled and whose cadence is not `none`, programs not retired, initiatives planned
   * or active. The visibility of each kind is part of the query.
   */
  candidates(
    orgId: OrgId,
    filter: { subjectType?: UpdateSubjectType; ownerId?: string },
    scope: ReadScope,
  ): Promise<DueCandidate[]>
}

export interface UpdateRequestRepo {
  insert(request: UpdateRequest): Promise<void>
  /** The subject's latest request, or null. */
  latest(orgId: OrgId, subjectType: UpdateSubjectType, subjectId: string): Promise<UpdateRequest | null>
}

declare module '../kernel/storage.ts' {
  interface Store {
    updateDue: UpdateDueRepo
    updateRequests: UpdateRequestRepo
  }
}
