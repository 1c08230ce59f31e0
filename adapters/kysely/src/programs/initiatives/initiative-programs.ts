import type { InitiativeId, ProgramId } from '@workgraph/core'
import type { InitiativeProgramRepo, InitiativeProgramRow } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../../keyset.ts'
import { iso } from '../../normalize.ts'
import type { Database } from '../../schema.ts'
import { visibleInitiativeRef, visibleProgramRef } from '../../scope.ts'

function toRow(r: {
  initiativeId: string
  programId: string
  position: number
  addedBy: string
  addedAt: unknown
}): InitiativeProgramRow {
  return {
    initiativeId: r.initiativeId as InitiativeId,
    programId: r.programId as ProgramId,
    position: Number(r.position),
    addedBy: r.addedBy,
    addedAt: iso(r.addedAt as string),
  }
}

const COLUMNS = ['initiativeId', 'programId', 'position', 'addedBy', 'addedAt'] as const

export function initiativeProgramRepo(db: Kysely<Database>): InitiativeProgramRepo {
  return {
    async add(orgId, row) {
      const result = await db
        .insertInto('initiativePrograms')
        .values({ orgId, ...row })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId, initiativeId, programId) {
      const result = await db
        .deleteFrom('initiativePrograms')
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', initiativeId)
        .where('programId', '=', programId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async programsOf(orgId, initiativeId, page, scope) {
      let q = db
        .selectFrom('initiativePrograms')
        .select([...COLUMNS])
        .where('orgId', '=', orgId)
        .where('initiativeId', '=', initiativeId)
      if (!scope.orgWide)
        q = q.where((eb) =>
          visibleProgramRef(eb, 'initiativePrograms.programId', 'initiativePrograms.orgId', scope),
        )
      const rows = await keysetPage(q, page, { sort: 'position', id: 'programId' }).execute()
      return rows.map(toRow)
    },
    async allOf(orgId, initiativeIds) {
      if (initiativeIds.length === 0) return []
      const rows = await db
        .selectFrom('initiativePrograms')
        .select([...COLUMNS])
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', [...initiativeIds])
        .orderBy('position')
        .orderBy('programId')
        .execute()
      return rows.map(toRow)
    },
    async initiativesOf(orgId, programId, page, scope) {
      const q = db
        .selectFrom('initiativePrograms')
        .select([...COLUMNS])
        .where('orgId', '=', orgId)
        .where('programId', '=', programId)
        .where((eb) =>
          visibleInitiativeRef(eb, 'initiativePrograms.initiativeId', 'initiativePrograms.orgId', scope),
        )
      const rows = await keysetPage(q, page, { sort: 'addedAt', id: 'initiativeId' }).execute()
      return rows.map(toRow)
    },
  }
}
