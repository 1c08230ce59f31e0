import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the connectors group raises (codes several groups raise are the kernel's). */
export const CONNECTOR_PROBLEMS = defineProblems('connectors', {
  connection_required: {
    status: 422,
    title: 'Reading this item needs your connection to the other tool, and you have none',
  },
  connection_inactive: { status: 409, title: 'The connection is not active: connect again' },
  authorization_failed: { status: 400, title: 'The authorization at the other tool failed or expired' },
  outbound_refused: { status: 422, title: 'The URL points at an address the server does not connect to' },
  external_item_not_found: {
    status: 422,
    title: 'The other tool has no item at this URL that your connection can read',
  },
  provider_unavailable: { status: 502, title: 'The other tool could not be reached or answered wrongly' },
})

type ConnectorProblems = typeof CONNECTOR_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends ConnectorProblems {}
}
