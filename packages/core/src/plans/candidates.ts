/** How many records a look-up considers; workspaces past this use ids. */
export const MAX_CANDIDATES = 1000
/** The first page of a candidate list, in a stable order. */
export const page = <S extends string>(sort: S) => ({
  sort,
  direction: 'asc' as const,
  after: null,
  limit: MAX_CANDIDATES,
})
