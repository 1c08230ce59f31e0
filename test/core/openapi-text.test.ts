import { readFileSync } from 'node:fs'
import { generateOpenApi, isApiOperation, OPERATIONS, TAGS } from '@workgraph/core'
import { describe, expect, it } from 'vitest'
import { staticTarget } from '../../packages/core/src/kernel/openapi/access-note.ts'
import { isOrgScoped } from '../../packages/core/src/kernel/operation.ts'

// The reference is what an integrator reads first: every operation says what it does and who may
// call it, and no summary reads as generated text. `pnpm lint:openapi` checks the same with the
// configurable rules of redocly.yaml; the patterns below are theirs, character for character.

const document = generateOpenApi(OPERATIONS, {
  serverUrl: 'https://workgraph.example',
  version: '0.1.0',
  tags: TAGS,
}) as { paths: Record<string, Record<string, Entry>>; components: { schemas: Record<string, unknown> } }

interface Entry {
  operationId: string
  summary: string
  description?: string
}

const entries = Object.values(document.paths).flatMap((item) => Object.values(item))
const ACCESS_LINE = /(?:^|\n\n)\*\*Access:\*\* [^\n]+\.$/

/** Summary rules, each a `rule/<name>` of redocly.yaml with the same `notPattern`. */
const SUMMARY_RULES: ReadonlyArray<{ rule: string; pattern: RegExp; why: string }> = [
  {
    rule: 'summary-article-a',
    pattern: /\ba (?:[aeio]|u(?!r[il]|s[eu]|ni|ti))/i,
    why: '"a" before a vowel sound ("a initiative"): write "an"',
  },
  {
    rule: 'summary-article-an',
    pattern: /\ban (?=[b-df-hj-np-tv-z])(?!h(?:our|onest|onou?r))/,
    why: '"an" before a consonant sound ("an task"): write "a"',
  },
  {
    rule: 'summary-no-identifier',
    pattern: /\b[a-z]+[A-Z]\w*|\b[a-z]\w*\.[a-z]\w*/,
    why: 'a camelCase or dotted identifier ("List tasks.links"): name the thing in words',
  },
]

/** `- opId: why` lines, for a failure message that lists every offender at once. */
const offenders = (list: Array<[string, string]>) => list.map(([id, why]) => `- ${id}: ${why}`).join('\n')

describe('the reference text', () => {
  it('describes every operation in its own words before the access line', () => {
    const missing = entries.filter((e) => !(e.description ?? '').replace(ACCESS_LINE, '').trim())
    expect(
      missing.map((e) => e.operationId),
      `Operations without a description (say what it does, who may call it and what it changes):\n${offenders(missing.map((e) => [e.operationId, e.summary]))}`,
    ).toEqual([])
  })

  it('ends every description with the access line of its scope', () => {
    // Operations outside /v1 (the connector callback) are not in the document.
    const wrong = OPERATIONS.filter(isApiOperation).filter((op) => {
      const text = document.paths[op.path]![op.method.toLowerCase()]!.description ?? ''
      const line = text.match(ACCESS_LINE)?.[0] ?? ''
      return !line || (op.scope ? !line.includes(`\`${op.scope}\``) : !line.includes('no token needed'))
    })
    expect(
      wrong.map((op) => op.id),
      'Descriptions without an access line naming their scope',
    ).toEqual([])
  })

  it('writes summaries for people', () => {
    const bad: Array<[string, string]> = []
    for (const e of entries) {
      for (const r of SUMMARY_RULES)
        if (r.pattern.test(e.summary)) bad.push([e.operationId, `"${e.summary}": ${r.why}`])
      if (!/^[A-Z]/.test(e.summary)) bad.push([e.operationId, `"${e.summary}": start with a capital letter`])
      if (/\.$/.test(e.summary))
        bad.push([e.operationId, `"${e.summary}": a summary is a title, no final period`])
    }
    expect(
      bad.map(([id]) => id),
      `Summaries that read as generated text:\n${offenders(bad)}`,
    ).toEqual([])
  })

  it('keeps the summary patterns identical in redocly.yaml', () => {
    const config = readFileSync('redocly.yaml', 'utf8')
    for (const r of SUMMARY_RULES) {
      expect(config, `rule/${r.rule}`).toContain(`rule/${r.rule}:`)
      expect(config, `rule/${r.rule} pattern`).toContain(`'/${r.pattern.source}/${r.pattern.flags}'`)
    }
  })

  it('names no schema "…PagePage"', () => {
    expect(Object.keys(document.components.schemas).filter((name) => /PagePage$/.test(name))).toEqual([])
  })
})

describe('who may call each operation', () => {
  // The access line says it from the declaration; where the declaration cannot, `requires` must.
  it('declares `requires` wherever the capability is checked in code or applies to what the request names', () => {
    const unsaid: Array<[string, string]> = []
    for (const op of OPERATIONS) {
      if (op.requires) continue
      if (op.capability && staticTarget(op) === null)
        unsaid.push([op.id, `\`${op.capability}\` applies to a record the request names`])
      else if (!op.capability && op.errors.includes('capability_required'))
        unsaid.push([op.id, 'answers `capability_required` but declares no capability'])
      else if (!op.capability && isOrgScoped(op) && op.method !== 'GET' && !op.reads)
        unsaid.push([op.id, 'a write in a workspace that declares no capability: say who may make it'])
    }
    expect(
      unsaid.map(([id]) => id),
      `Operations whose page cannot say who may call them:\n${offenders(unsaid)}`,
    ).toEqual([])
  })

  it('names the declared capability in `requires`', () => {
    const disagree = OPERATIONS.filter(
      (op) => op.requires && op.capability && !op.requires.includes(`\`${op.capability}\``),
    )
    expect(
      disagree.map((op) => op.id),
      'A `requires` that does not name the capability the engine checks',
    ).toEqual([])
  })
})
