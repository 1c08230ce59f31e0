import type { Api } from '../api.ts'
import type { Person } from './demo-portfolio.ts'
import type { TeammateAccount } from './teammates.ts'

/** One write (or a few) of a seed run, replayable: see `seedDemo`. */
export interface Step {
  label: string
  /** Unique within a run and stable across retries of it, so a resumed run replays instead of duplicating. */
  key: string
  perform(key: string): Promise<void>
}

/** What the steps of a run share: the ids earlier steps got back, and how to act as each person. */
export interface SeedContext {
  run: string
  /** The seeding person's client. */
  api: Api
  /** The client of `person`, once their step has signed them in; without teammates, the seeding person's. */
  as(person: Person): Api
  /** Whether teammates are made in this run (the server's mail can be read here). */
  withTeammates: boolean
  ids: {
    org: string
    slug: string
    teams: Map<string, string>
    /** `${teamKey}/${stateName}` → id */
    states: Map<string, string>
    labels: Map<string, string>
    cycles: Map<string, string>
    tasks: Map<string, string>
    taskKeys: Map<string, string>
    agents: Map<string, string>
    members: Map<Person, string>
    projects: Map<string, string>
    /** `${projectRef}/${milestoneRef}` → id */
    milestones: Map<string, string>
    fields: Map<string, string>
    /** `Customer impact` option name → id */
    impactOptions: Map<string, string>
  }
  /** The seeding person's @-handle (their name in lower case, no spaces). */
  handle: string
  /** The scopes of the seeding person's token. */
  scopes: string[]
  /** What the run left out and why, for the summary. */
  notes: string[]
  teammates: (TeammateAccount & { key: Person })[]
  clients: Map<Person, Api>
  org(): string
  /** `YYYY-MM-DD`, `days` from the day the run started (its name's date). */
  day(days: number): string
  /** The Monday (UTC) of the run's week: cycles start there. */
  anchor: Date
  step(key: string, label: string, perform: (key: string) => Promise<void>): void
  count(what: string, n?: number): void
}
