import { type Static, Type } from '@sinclair/typebox'
import type { Weekday } from '../cycles/schemas.ts'
import { currentOrg } from '../kernel/context.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { NullableTimestamp } from '../kernel/schema-types.ts'
import { WeekdaySchema } from './schemas.ts'

/**
 * The org's default update cadence per kind of parent. It lives with projects because a project's
 * own cadence (`updateCadence`) is resolved against it here; programs and initiatives, which have no
 * cadence of their own, follow it as it is.
 */
export const CADENCE_PARENT_TYPES = ['project', 'program', 'initiative'] as const
export type CadenceParentType = (typeof CADENCE_PARENT_TYPES)[number]

/** Most weeks between two expected updates. */
export const MAX_CADENCE_WEEKS = 4

export const CadenceDefault = Type.Object(
  {
    everyWeeks: Type.Integer({
      minimum: 0,
      maximum: MAX_CADENCE_WEEKS,
      description: 'An update is expected every this many weeks; 0 expects none.',
    }),
    weekday: WeekdaySchema,
    hour: Type.Integer({
      minimum: 0,
      maximum: 23,
      description: 'The hour (UTC) of the weekday it is due at.',
    }),
  },
  { $id: 'CadenceDefault', additionalProperties: false },
)
export type CadenceDefault = Static<typeof CadenceDefault>

export const UpdateSettings = Type.Object(
  {
    project: CadenceDefault,
    program: CadenceDefault,
    initiative: CadenceDefault,
    updatedAt: NullableTimestamp('When they last changed; null while they are the defaults.'),
  },
  {
    $id: 'UpdateSettings',
    additionalProperties: false,
    description:
      "The org's default update cadence per kind of parent. A project whose `updateCadence` is `orgDefault` " +
      'follows `project`; programs and initiatives always follow theirs.',
  },
)
export type UpdateSettings = Static<typeof UpdateSettings>

export const DEFAULT_CADENCE: CadenceDefault = { everyWeeks: 0, weekday: 'friday' as Weekday, hour: 9 }

export interface UpdateSettingsRepo {
  /** The stored defaults, one row per kind of parent that was ever changed. */
  get(
    orgId: OrgId,
  ): Promise<{ defaults: Partial<Record<CadenceParentType, CadenceDefault>>; updatedAt: string | null }>
  put(orgId: OrgId, type: CadenceParentType, cadence: CadenceDefault, at: string): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** The org's default update cadences. */
    updateSettings: UpdateSettingsRepo
  }
}

/** The org's settings, defaults filled in. */
export async function readUpdateSettings(ctx: OperationContext, orgId?: OrgId): Promise<UpdateSettings> {
  const stored = await ctx.store.updateSettings.get(orgId ?? currentOrg(ctx).id)
  return {
    project: stored.defaults.project ?? DEFAULT_CADENCE,
    program: stored.defaults.program ?? DEFAULT_CADENCE,
    initiative: stored.defaults.initiative ?? DEFAULT_CADENCE,
    updatedAt: stored.updatedAt,
  }
}
