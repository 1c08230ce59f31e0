import type { OrgId, TeamId } from '../kernel/ids.ts'
import type { TeamSettingsRecord } from './settings-schemas.ts'

/** A team's settings and its triage settings, in one record; no record means the defaults. */
export interface TeamSettingsRepo {
  get(orgId: OrgId, teamId: TeamId): Promise<TeamSettingsRecord | null>
  /** Inserts or replaces the team's record. */
  put(orgId: OrgId, settings: TeamSettingsRecord & { updatedAt: string }): Promise<void>
}

declare module '../kernel/storage.ts' {
  interface Store {
    teamSettings: TeamSettingsRepo
  }
}
