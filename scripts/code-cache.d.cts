/** Runs a CommonJS bundle with V8's code cache recorded for it, if any (scripts/code-cache.cjs). */
export function runWithCodeCache(
  file: string,
  options?: { record?: boolean },
): { exports: Record<string, unknown>; cache: 'accepted' | 'rejected' | 'none' }
