import { githubProvider, gitlabProvider, matchItemUrl, OPERATIONS, workgraphProvider } from '@workgraph/core'
import { describe, expect, it } from 'vitest'
import { readItemFields } from '../../packages/core/src/connectors/providers.ts'
import { seal, unseal } from '../../packages/core/src/connectors/secrets.ts'
import { compilePart } from '../../packages/core/src/kernel/pipeline/validation.ts'

const providers = [
  workgraphProvider({ baseUrl: 'https://work.example.com', clientId: 'c' }),
  githubProvider({ clientId: 'c' }),
  gitlabProvider({ clientId: 'c' }),
]

describe('provider definitions read item URLs', () => {
  it.each([
    [
      'https://github.com/acme/api/issues/42',
      'github',
      'issue',
      'https://api.github.com/repos/acme/api/issues/42',
    ],
    [
      'https://github.com/acme/api/pull/7',
      'github',
      'pull request',
      'https://api.github.com/repos/acme/api/pulls/7',
    ],
    [
      'https://gitlab.com/group/sub/proj/-/issues/3',
      'gitlab',
      'issue',
      'https://gitlab.com/api/v4/projects/group%2Fsub%2Fproj/issues/3',
    ],
    [
      'https://work.example.com/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/task_01JD3Q2R4S5T6V7W8X9YZABCDE',
      'workgraph',
      'task',
      'https://work.example.com/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/task_01JD3Q2R4S5T6V7W8X9YZABCDE',
    ],
    [
      'https://work.example.com/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/by-key/ENG-12',
      'workgraph',
      'task',
      'https://work.example.com/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/by-key/ENG-12',
    ],
  ])('%s', (url, provider, type, apiUrl) => {
    const match = matchItemUrl(providers, url)
    expect(match).toMatchObject({ provider: { id: provider }, item: { type }, apiUrl })
  })

  it.each([
    'https://github.com/acme/api/issues/0',
    'https://github.com/acme/api/issues/42/extra',
    'https://github.com.evil.example/acme/api/issues/42',
    'https://evil.example/?https://github.com/acme/api/issues/42',
    'https://gitlab.com/-/issues/3',
    'https://work.example.com.evil/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/by-key/ENG-12',
    'https://workXexample.com/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE/tasks/by-key/ENG-12',
  ])('no provider reads %s', (url) => {
    expect(matchItemUrl(providers, url)).toBeNull()
  })

  it('picks fields by dot path and ignores what is not a string, number or boolean', () => {
    const github = githubProvider({ clientId: 'c' }).items[0]!
    expect(
      readItemFields(github, {
        title: 'Crash',
        state: 'open',
        assignee: { login: 'octocat' },
        updated_at: '2026-11-24T08:00:00Z',
      }),
    ).toEqual({ title: 'Crash', state: 'open', assignee: 'octocat', updatedAt: '2026-11-24T08:00:00.000Z' })
    expect(readItemFields(github, { title: { evil: 1 }, assignee: null, updated_at: 'soon' })).toEqual({
      title: null,
      state: null,
      assignee: null,
      updatedAt: null,
    })
  })
})

describe('connector catalogue entries', () => {
  const ops = OPERATIONS.filter((op) => op.tag === 'Connectors')

  // Reads of what is on records need only work:read (docs/connectors.md); everything else connectors:link.
  const WORK_READ = new Set([
    'linkedItems.get',
    'linkedItems.lookup',
    'records.properties.list',
    'records.properties.get',
  ])

  it('needs connectors:link everywhere but the redirect landing and the reads of records', () => {
    expect(ops).toHaveLength(22)
    for (const op of ops)
      expect(op.scope, op.id).toBe(
        op.id === 'connectors.callback' ? null : WORK_READ.has(op.id) ? 'work:read' : 'connectors:link',
      )
  })

  it('has request and response examples that validate against their schemas', () => {
    let checked = 0
    for (const op of ops) {
      for (const schema of [
        op.body,
        op.response,
        ...(op.response?.properties?.data ? [op.response.properties.data.items] : []),
      ]) {
        for (const example of schema?.examples ?? []) {
          // The engine's own validator: it throws a 400 problem naming the bad field.
          expect(() => compilePart(schema, 'body', { coerce: false }).parse(example), op.id).not.toThrow()
          checked++
        }
      }
    }
    expect(checked).toBeGreaterThanOrEqual(10)
  })
})

describe('tokens at rest', () => {
  const key = Buffer.alloc(32, 7).toString('base64url')
  it('round-trips, and refuses another row id or a tampered ciphertext', () => {
    const sealed = seal(key, 'conn_a', 'secret-refresh-token')
    expect(sealed).not.toContain('secret')
    expect(unseal(key, 'conn_a', sealed)).toBe('secret-refresh-token')
    expect(() => unseal(key, 'conn_b', sealed)).toThrow()
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}A`
    expect(() => unseal(key, 'conn_a', tampered)).toThrow()
    expect(() => seal('short', 'conn_a', 'x')).toThrow(/32 bytes/)
  })
})
