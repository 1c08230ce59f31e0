import type { Priority } from '../../tasks/schemas.ts'

/** Asana's "Priority" custom field (and CSV column) by its option names. */
export const ASANA_PRIORITIES: Record<string, Priority> = {
  urgent: 'urgent',
  high: 'high',
  medium: 'medium',
  low: 'low',
}

/** Custom fields (CSV columns) whose number is the task's estimate. */
export const ASANA_ESTIMATES = ['estimate', 'story points', 'points']

/** The link back to an Asana task: its `permalink_url`, else the app's task URL by gid. */
export const asanaUrl = (gid: string, permalink: string | null) =>
  permalink ?? `https://app.asana.com/0/0/${gid}`
