import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, expect, it } from 'vitest'
import { bundle } from '../../scripts/bundle.mjs'

const root = join(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'workgraph-code-cache-'))
const out = join(dir, 'out')
const file = join(out, 'entry.cjs')

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Bundles an entry whose `answer()` returns `value` and whose `fail()` throws on line 4. */
async function build(value: string): Promise<void> {
  writeFileSync(
    join(dir, 'entry.ts'),
    [
      `export const answer = (): string => ${JSON.stringify(value)}`,
      'export function fail(): never {',
      "  const message: string = 'failed on purpose'",
      '  throw new Error(message)',
      '}',
      '',
    ].join('\n'),
  )
  await bundle({ root: dir, entryPoints: [{ in: 'entry.ts', out: 'entry' }], outdir: out, format: 'cjs' })
}

/** Runs the bundle in a new Node process as run-server.cjs does: what it answers, and the cache's fate. */
function run(record = false): { cache: string; answer: string; stack: string } {
  const program = [
    `import { runWithCodeCache } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/code-cache.cjs')).href)}`,
    `import { mapStacksLazily } from ${JSON.stringify(pathToFileURL(join(root, 'scripts/stack-source-maps.cjs')).href)}`,
    `mapStacksLazily(${JSON.stringify(`${pathToFileURL(out).href}/`)})`,
    `const { exports, cache } = runWithCodeCache(${JSON.stringify(file)}, { record: ${record} })`,
    'let stack = ""',
    'try { exports.fail() } catch (error) { stack = error.stack }',
    'console.log(JSON.stringify({ cache, answer: exports.answer(), stack }))',
  ].join('\n')
  return JSON.parse(
    execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' }),
  )
}

const caches = () => readdirSync(out).filter((f) => f.endsWith('.cache'))

it('a recorded code cache is used by the next start, and a rebuilt bundle or a damaged cache still starts', async () => {
  await build('first')
  expect(run(true)).toMatchObject({ cache: 'none', answer: 'first' })
  expect(caches()).toHaveLength(1)
  expect(run()).toMatchObject({ cache: 'accepted', answer: 'first' })

  // A rebuilt bundle of the same length: V8 alone would take the old cache for it.
  await new Promise((resolve) => setTimeout(resolve, 20))
  await build('other')
  expect(run()).toMatchObject({ cache: 'none', answer: 'other' })
  // Recording replaces the last bundle's cache rather than adding to it.
  run(true)
  expect(caches()).toHaveLength(1)

  // A cache V8 refuses (another Node, or damaged): compiled as usual.
  writeFileSync(join(out, caches()[0]!), 'not a code cache')
  expect(run()).toMatchObject({ cache: 'rejected', answer: 'other' })
})

it('a stack thrown in the cached bundle names the TypeScript source and line', async () => {
  await build('stack')
  run(true)
  const { cache, stack } = run()
  expect(cache).toBe('accepted')
  expect(stack.split('\n')[0]).toBe('Error: failed on purpose')
  expect(stack).toContain(`fail (${join(dir, 'entry.ts')}:4:9)`)
  expect(stack).not.toContain('entry.cjs')
})
