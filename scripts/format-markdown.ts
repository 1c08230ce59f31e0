import { execFileSync } from 'node:child_process'

/** Pads regenerated Markdown tables as `biome ci` expects, so a regenerated page passes CI as written (a failure throws with biome's output). */
export function formatMarkdown(files: readonly string[]): void {
  execFileSync('npx', ['biome', 'format', '--write', ...files], { stdio: 'pipe' })
}
