/**
 * The last words of operation ids after which a record may be gone or settled (archived, revoked,
 * accepted, …): suites that send every operation of the catalogue to one world send these after
 * the others, so that the rest still find the records they name.
 */
export const SETTLING_VERBS: ReadonlySet<string> = new Set([
  'remove',
  'archive',
  'cancel',
  'complete',
  'deactivate',
  'revoke',
  'finish',
  'reject',
  'decline',
  'accept',
  'markDuplicate',
  'approve',
  'requestChanges',
  'clear',
  'removeTask',
])
