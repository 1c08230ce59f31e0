/**
 * Lets the host run what is waiting (a write request, sockets draining) between slices of a long
 * synchronous loop. `setImmediate` where the host has it (Node, Bun, Deno), else a zero timer.
 */
const yieldToHost: () => Promise<void> =
  typeof setImmediate === 'function'
    ? () => new Promise((resolve) => setImmediate(resolve))
    : () => new Promise((resolve) => setTimeout(resolve, 0))

/**
 * Calls `fn` for every item, `size` at a time with a turn of the event loop between slices: a
 * fan-out to ten thousand streams would otherwise hold the loop (and every request) for its length.
 */
export async function forEachInSlices<T>(
  items: readonly T[],
  size: number,
  fn: (item: T) => void,
): Promise<void> {
  for (let start = 0; start < items.length; start += size) {
    if (start > 0) await yieldToHost()
    const end = Math.min(items.length, start + size)
    for (let i = start; i < end; i++) fn(items[i]!)
  }
}

/** Calls `fn` for every item, at most `limit` calls under way at once. */
export async function forEachLimited<T>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await fn(items[next++]!)
  })
  await Promise.all(workers)
}
