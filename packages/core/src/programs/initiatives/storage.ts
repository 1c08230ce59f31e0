import type { InitiativeId, OrgId, ProgramId } from '../../kernel/ids.ts'
import type { PageRequest } from '../../kernel/pagination.ts'
import type { ReadScope } from '../../kernel/read-scope.ts'

/** A program's place among an initiative's programs. */
export interface InitiativeProgramRow {
  initiativeId: InitiativeId
  programId: ProgramId
  position: number
  addedBy: string
  addedAt: string
}

/**
 * Which programs an initiative includes (many to many, ordered within the initiative). The links go
 * with either side (cascade).
 */
export interface InitiativeProgramRepo {
  /** Returns false, writing nothing, when the program is linked already. */
  add(orgId: OrgId, row: InitiativeProgramRow): Promise<boolean>
  /** Returns false when the program was not linked. */
  remove(orgId: OrgId, initiativeId: InitiativeId, programId: ProgramId): Promise<boolean>
  /** The initiative's links to programs the scope may view (as `programs.get`), by position then program id. */
  programsOf(
    orgId: OrgId,
    initiativeId: InitiativeId,
    page: PageRequest<'position'>,
    scope: ReadScope,
  ): Promise<InitiativeProgramRow[]>
  /** Every link of these initiatives, by position. */
  allOf(orgId: OrgId, initiativeIds: readonly InitiativeId[]): Promise<InitiativeProgramRow[]>
  /**
   * The links of the program to initiatives the scope can view (the initiative visibility predicate is
   * part of the query, so pages stay exact), oldest link first.
   */
  initiativesOf(
    orgId: OrgId,
    programId: ProgramId,
    page: PageRequest<'addedAt'>,
    scope: ReadScope,
  ): Promise<InitiativeProgramRow[]>
}

declare module '../../kernel/storage.ts' {
  interface Store {
    /** The programs each initiative includes. */
    initiativePrograms: InitiativeProgramRepo
  }
}
