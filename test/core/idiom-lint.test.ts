import { readFileSync } from 'node:fs'
import { generateOpenApi, OPERATIONS, TAGS } from '@workgraph/core'
import { describe, expect, it } from 'vitest'
import {
  IDIOM_RULES,
  idiomProblems,
  insightsTagFollowsPath,
  oneMethodPerAct,
  operationIdNounInPath,
} from '../../scripts/redocly/idioms.mjs'

// The rules `pnpm lint:openapi` runs through the Redocly plugin (redocly.yaml `plugins:`), run here
// over the same generated document so that a catalogue change that breaks an idiom fails `pnpm test`.
const document = generateOpenApi(OPERATIONS, {
  serverUrl: 'https://workgraph.example',
  version: '0.1.0',
  tags: TAGS,
}) as unknown as Record<string, unknown>

it('holds every idiom rule over the served document', () => {
  const found = idiomProblems(document)
  for (const [rule, problems] of Object.entries(found))
    expect(
      problems.map((p) => p.message),
      rule,
    ).toEqual([])
})

it('declares every rule in redocly.yaml as an error', () => {
  const config = readFileSync(new URL('../../redocly.yaml', import.meta.url), 'utf8')
  expect(config).toContain('- scripts/redocly/idioms.mjs')
  for (const name of Object.keys(IDIOM_RULES)) expect(config).toContain(`idioms/${name}: error`)
})

/** A document of the given operations: `[method, path, operation]`. */
function doc(...ops: [string, string, Record<string, unknown>][]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [method, path, operation] of ops) paths[path] = { ...paths[path], [method]: operation }
  return {
    openapi: '3.1.0',
    paths,
    components: {
      schemas: {
        Page: { type: 'object', properties: { data: { type: 'array' }, nextCursor: { type: 'string' } } },
      },
      parameters: { Cursor: { name: 'cursor', in: 'query', schema: { type: 'string' } } },
    },
  }
}
const ids = (problems: { operationId: string }[]) => problems.map((p) => p.operationId)
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } })
const page = { 200: json({ $ref: '#/components/schemas/Page' }) }
const limit = { name: 'limit', in: 'query', schema: { type: 'integer' } }
const cursor = { $ref: '#/components/parameters/Cursor' }

describe('operation-id-noun-in-path', () => {
  it('accepts nouns that are path segments in kebab case and in order, `me` and `hub` included', () => {
    const good = doc(
      [
        'get',
        '/v1/orgs/{orgId}/custom-fields/{fieldId}/options',
        { operationId: 'customFields.options.list' },
      ],
      ['get', '/v1/me/consents', { operationId: 'me.consents.list' }],
      ['get', '/v1/hub/inbox/counts', { operationId: 'hub.inbox.counts' }],
      [
        'post',
        '/v1/orgs/{orgId}/tasks/{taskId}/convert-to-project',
        { operationId: 'tasks.convertToProject' },
      ],
    )
    expect(operationIdNounInPath(good)).toEqual([])
  })

  it('refuses a noun missing from the path, or out of order', () => {
    const bad = doc(
      ['get', '/v1/orgs/{orgId}/states/{stateId}', { operationId: 'workflowStates.get' }],
      ['get', '/v1/orgs/{orgId}/approval-requests', { operationId: 'approvals.list' }],
      [
        'get',
        '/v1/orgs/{orgId}/options/{optionId}/custom-fields',
        { operationId: 'customFields.options.list' },
      ],
      ['get', '/v1/orgs/{orgId}/teams/{teamId}/settings', { operationId: 'teamSettings.get' }],
    )
    expect(ids(operationIdNounInPath(bad))).toEqual([
      'workflowStates.get',
      'approvals.list',
      'customFields.options.list',
      'teamSettings.get',
    ])
    expect(operationIdNounInPath(bad)[0]!.pointer).toEqual([
      'paths',
      '/v1/orgs/{orgId}/states/{stateId}',
      'get',
      'operationId',
    ])
  })
})

describe('one-method-per-act', () => {
  it('accepts each act in its one shape', () => {
    const good = doc(
      ['put', '/v1/orgs/{orgId}/tasks/{taskId}/labels/{labelId}', { operationId: 'tasks.labels.add' }],
      ['delete', '/v1/orgs/{orgId}/tasks/{taskId}/labels/{labelId}', { operationId: 'tasks.labels.remove' }],
      ['put', '/v1/orgs/{orgId}/views/{viewId}/preferences', { operationId: 'views.preferences.set' }],
      [
        'post',
        '/v1/orgs/{orgId}/milestones/{milestoneId}/move',
        {
          operationId: 'milestones.move',
          requestBody: json({ type: 'object', properties: { beforeId: {}, afterId: {} } }),
        },
      ],
      [
        'get',
        '/v1/orgs/{orgId}/tasks/{taskId}/history',
        { operationId: 'tasks.history.list', parameters: [cursor, limit], responses: page },
      ],
    )
    expect(oneMethodPerAct(good)).toEqual([])
  })

  it('refuses an add that POSTs to the collection or a remove that is not DELETE', () => {
    const bad = doc(
      ['post', '/v1/orgs/{orgId}/teams/{teamId}/members', { operationId: 'teams.members.add' }],
      ['put', '/v1/orgs/{orgId}/tasks/{taskId}/labels', { operationId: 'tasks.labels.add' }],
      [
        'post',
        '/v1/orgs/{orgId}/tasks/{taskId}/labels/{labelId}/remove',
        { operationId: 'tasks.labels.remove' },
      ],
    )
    expect(ids(oneMethodPerAct(bad))).toEqual([
      'teams.members.add',
      'tasks.labels.add',
      'tasks.labels.remove',
    ])
  })

  it('refuses `.reorder`, `.put`, and a `.set` that is not PUT', () => {
    const bad = doc(
      ['post', '/v1/orgs/{orgId}/teams/{teamId}/states/reorder', { operationId: 'teams.states.reorder' }],
      ['put', '/v1/orgs/{orgId}/views/{viewId}/preferences', { operationId: 'views.preferences.put' }],
      [
        'patch',
        '/v1/orgs/{orgId}/initiatives/{initiativeId}/metric',
        { operationId: 'initiatives.metric.set' },
      ],
    )
    expect(ids(oneMethodPerAct(bad))).toEqual([
      'teams.states.reorder',
      'views.preferences.put',
      'initiatives.metric.set',
    ])
  })

  it('refuses a move elsewhere than POST …/move, or with another body', () => {
    const bad = doc(
      [
        'patch',
        '/v1/orgs/{orgId}/states/{stateId}',
        { operationId: 'states.move', requestBody: json({ properties: { beforeId: {}, afterId: {} } }) },
      ],
      [
        'post',
        '/v1/orgs/{orgId}/options/{optionId}/move',
        { operationId: 'options.move', requestBody: json({ properties: { position: {} } }) },
      ],
      // A `list` that is not required is a field of its own, not the name of the list.
      [
        'post',
        '/v1/orgs/{orgId}/cards/{cardId}/move',
        {
          operationId: 'cards.move',
          requestBody: json({ properties: { beforeId: {}, afterId: {}, list: {} } }),
        },
      ],
    )
    expect(ids(oneMethodPerAct(bad))).toEqual(['states.move', 'options.move', 'cards.move'])
    // An item in several lists names which one: `list`, required, beside the anchor.
    const several = doc([
      'post',
      '/v1/orgs/{orgId}/tasks/{taskId}/move',
      {
        operationId: 'tasks.move',
        requestBody: json({ properties: { list: {}, beforeId: {}, afterId: {} }, required: ['list'] }),
      },
    ])
    expect(ids(oneMethodPerAct(several))).toEqual([])
  })

  it('refuses a history that is not GET …/history, does not page or answers no nextCursor', () => {
    const bad = doc(
      [
        'get',
        '/v1/orgs/{orgId}/projects/{projectId}/changes',
        { operationId: 'projects.history.list', parameters: [cursor, limit], responses: page },
      ],
      [
        'get',
        '/v1/orgs/{orgId}/programs/{programId}/history',
        { operationId: 'programs.history.list', parameters: [limit], responses: page },
      ],
      [
        'get',
        '/v1/orgs/{orgId}/comments/{commentId}/history',
        {
          operationId: 'comments.history.list',
          parameters: [cursor, limit],
          responses: { 200: json({ properties: { data: {} } }) },
        },
      ],
    )
    expect(ids(oneMethodPerAct(bad))).toEqual([
      'projects.history.list',
      'programs.history.list',
      'comments.history.list',
    ])
  })
})

describe('insights-tag-follows-path', () => {
  it('tags Insights exactly what is under an `insights` segment', () => {
    const found = insightsTagFollowsPath(
      doc(
        [
          'get',
          '/v1/orgs/{orgId}/insights/workload',
          { operationId: 'insights.workload', tags: ['Insights'] },
        ],
        [
          'get',
          '/v1/orgs/{orgId}/teams/{teamId}/insights/velocity',
          { operationId: 'teams.velocity', tags: ['Teams'] },
        ],
        [
          'get',
          '/v1/orgs/{orgId}/projects/{projectId}/progress/history',
          { operationId: 'projects.progressHistory', tags: ['Insights'] },
        ],
        [
          'get',
          '/v1/orgs/{orgId}/cycles/{cycleId}/burndown',
          { operationId: 'cycles.burndown', tags: ['Cycles'] },
        ],
      ),
    )
    expect(ids(found)).toEqual(['teams.velocity', 'projects.progressHistory'])
    expect(found[0]!.pointer.at(-1)).toBe('tags')
  })
})
