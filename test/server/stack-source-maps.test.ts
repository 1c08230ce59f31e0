import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { bundle } from '../../scripts/bundle.mjs'

const root = join(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'workgraph-stacks-'))

afterAll(() => rmSync(dir, { recursive: true, force: true }))

// `pnpm start` runs the minified bundle without Node's source maps (they cost a sixth of a start):
// a stack it prints still names the TypeScript file and line, from the map read at that moment.
it('a stack thrown in the bundle names the TypeScript source, line and column', async () => {
  writeFileSync(
    join(dir, 'entry.ts'),
    [
      'export function failing(reason: string): never {',
      "  const message: string = 'failed: ' + reason",
      '  throw new Error(message)',
      '}',
      '',
    ].join('\n'),
  )
  await bundle({ root: dir, entryPoints: [{ in: 'entry.ts', out: 'entry' }], outdir: join(dir, 'out') })
  const program = [
    `import { mapStacksLazily } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/stack-source-maps.cjs')).href)}`,
    `mapStacksLazily(${JSON.stringify(`${pathToFileURL(join(dir, 'out')).href}/`)})`,
    `const { failing } = await import(${JSON.stringify(pathToFileURL(join(dir, 'out/entry.mjs')).href)})`,
    "try { failing('on purpose') } catch (error) { console.log(error.stack) }",
  ].join('\n')
  const stack = execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' })
  expect(stack.split('\n')[0]).toBe('Error: failed: on purpose')
  expect(stack).toContain(`failing (${join(dir, 'entry.ts')}:3:9)`)
  expect(stack).not.toContain('entry.mjs')
})
