import type { HubNotice } from '../kernel/events/events.ts'
import type { OrgId } from '../kernel/ids.ts'

/**
 * The notices heard while streams are being opened: the highest sequence announced in each
 * workspace from before a stream's start read until it joined (a stream that joins below it is
 * behind). Kept only while some stream is being opened there, so a long-lived process does not keep
 * a number for every workspace that ever wrote.
 */
export function createJoinWindow() {
  const opening = new Map<OrgId, number>()
  const noticed = new Map<OrgId, number>()
  return {
    /** Streams are about to read their start in these workspaces. */
    open(orgIds: readonly OrgId[]): void {
      for (const orgId of orgIds) opening.set(orgId, (opening.get(orgId) ?? 0) + 1)
    },
    /** Those streams joined, or failed: their notices matter no longer. */
    close(orgIds: readonly OrgId[]): void {
      for (const orgId of orgIds) {
        const left = (opening.get(orgId) ?? 1) - 1
        if (left > 0) opening.set(orgId, left)
        else {
          opening.delete(orgId)
          noticed.delete(orgId)
        }
      }
    },
    heard(notice: HubNotice): void {
      if (opening.has(notice.orgId) && notice.seq > (noticed.get(notice.orgId) ?? -1))
        noticed.set(notice.orgId, notice.seq)
    },
    /** The highest sequence noticed in the workspace while a stream was being opened; -1 if none. */
    noticed: (orgId: OrgId): number => noticed.get(orgId) ?? -1,
    /** The workspaces it keeps anything for. */
    workspaces: (): OrgId[] => [...opening.keys()],
  }
}
