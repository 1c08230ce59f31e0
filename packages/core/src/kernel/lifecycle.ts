/** The lifecycle timestamps kept by status transitions on tasks and projects alike. */
export interface LifecycleStamps {
  startedAt: string | null
  completedAt: string | null
  canceledAt: string | null
}

export const EMPTY_STAMPS: Readonly<LifecycleStamps> = {
  startedAt: null,
  completedAt: null,
  canceledAt: null,
}

/**
 * Lifecycle timestamps after moving from one category to another: `startedAt` is set the first time
 * the record starts (or completes without having started) and kept after; `completedAt` and
 * `canceledAt` hold while the record is in that category. Returns only the stamps that change.
 */
export function lifecycleStamps(
  from: string | null,
  to: string,
  current: LifecycleStamps,
  now: string,
): Partial<LifecycleStamps> {
  if (from === to) return {}
  const stamps: Partial<LifecycleStamps> = {}
  if ((to === 'started' || to === 'completed') && !current.startedAt) stamps.startedAt = now
  stamps.completedAt = to === 'completed' ? now : null
  stamps.canceledAt = to === 'canceled' ? now : null
  return Object.fromEntries(
    Object.entries(stamps).filter(([k, v]) => current[k as keyof LifecycleStamps] !== v),
  ) as Partial<LifecycleStamps>
}
