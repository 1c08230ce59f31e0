import type { NotificationKind } from '../notifications/schemas.ts'
import type { DigestItem } from './storage.ts'

/** The first line of an instant mail, by kind. */
const HEADLINES: Record<NotificationKind, string> = {
  assigned: 'A task was assigned to you',
  mentioned: 'You were mentioned',
  commented: 'A new comment on a task you follow',
  stateChanged: 'A task you follow changed state',
  updatePosted: 'A status update was posted',
  approvalRequested: 'Your approval is requested',
  dueSoon: 'A task of yours is due soon',
  overdue: 'A task of yours is overdue',
  reminder: 'A reminder',
  triaged: 'A task you reported was triaged',
  triageRequested: 'A task waits in triage',
  taskCreated: 'A task was created',
  updateRequested: 'A status update is requested from you',
  ruleNotified: 'An automation rule notified you',
}

/** Subjects stay short enough for every client's list. */
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text)

export function instantMail(
  n: { kind: NotificationKind; summary: string; createdAt: string },
  orgName: string,
) {
  return {
    subject: clip(`[${orgName}] ${n.summary}`, 160),
    text: `${HEADLINES[n.kind]} in ${orgName}:\n\n${n.summary}\n\n(${n.createdAt})`,
  }
}

/** Items a digest lists; the rest are counted. */
export const DIGEST_ITEMS = 200

/** A digest: what is unread, grouped by workspace, oldest first within each. */
export function digestMail(items: DigestItem[], more: boolean, localDate: string) {
  const byOrg = new Map<string, DigestItem[]>()
  for (const item of items) byOrg.set(item.orgName, [...(byOrg.get(item.orgName) ?? []), item])
  const sections = [...byOrg].map(
    ([org, list]) =>
      `${org}\n${list.map((i) => `- ${i.summary} (${HEADLINES[i.kind].toLowerCase()})`).join('\n')}`,
  )
  const count = `${items.length}${more ? '+' : ''} unread notification${items.length === 1 && !more ? '' : 's'}`
  return {
    subject: `Your workgraph digest for ${localDate}: ${count}`,
    text: `Unread since your last digest:\n\n${sections.join('\n\n')}${more ? '\n\n…and more in your inbox.' : ''}`,
  }
}
