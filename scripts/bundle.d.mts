/** Bundles workspace entry points into ES modules in `outdir` (scripts/bundle.mjs). */
export function bundle(options: {
  root: string
  entryPoints: (string | { in: string; out: string })[]
  outdir: string
}): Promise<void>
