/**
 * Bundles workspace entry points into ES modules in `outdir`, or with `format: 'cjs'` into one
 * CommonJS file each (scripts/bundle.mjs).
 */
export function bundle(options: {
  root: string
  entryPoints: (string | { in: string; out: string })[]
  outdir: string
  format?: 'esm' | 'cjs'
}): Promise<void>
