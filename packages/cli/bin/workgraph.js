#!/usr/bin/env node
// A committed launcher, so installing a checkout links the bin before anything is built. An
// installed package runs its build (dist/); in the repository, the CLI's sources are bundled into
// one file on first use and whenever a source is newer (about a second), so each later command
// starts in a fraction of a second, with no package manager or TypeScript loader in the loop.
import { existsSync, readdirSync, statSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const built = join(here, '../dist/bin/workgraph.js')
const root = join(here, '../../..')
const sources = ['packages/cli/src', 'packages/core/src', 'adapters/kysely/src'].map((dir) => join(root, dir))

if (existsSync(built) || !existsSync(join(root, 'scripts/bundle.mjs'))) {
  await import(pathToFileURL(built).href)
} else {
  const bundled = join(root, 'dist/cli/workgraph.mjs')
  const newest = () => {
    let time = 0
    for (const dir of sources)
      for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true }))
        if (entry.isFile()) time = Math.max(time, statSync(join(entry.parentPath, entry.name)).mtimeMs)
    return time
  }
  if (!existsSync(bundled) || statSync(bundled).mtimeMs < newest()) {
    const { bundle } = await import(pathToFileURL(join(root, 'scripts/bundle.mjs')).href)
    await bundle({
      root,
      entryPoints: [{ in: 'packages/cli/src/bin/workgraph.ts', out: 'workgraph' }],
      outdir: join(root, 'dist/cli'),
    })
  }
  process.setSourceMapsEnabled(true)
  await import(pathToFileURL(bundled).href)
}
