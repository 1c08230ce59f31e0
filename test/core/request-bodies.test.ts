import { generateOpenApi, OPERATIONS, TAGS } from '@workgraph/core'
import { describe, expect, it } from 'vitest'
import { bodySchemaName } from '../../packages/core/src/kernel/openapi/body-names.ts'
import { namedRequestBodies } from '../../scripts/redocly/idioms.mjs'

// Request bodies are named components derived from their resource (docs/api-conventions.md, "Request
// bodies"): a generated client types what it sends by name, with the field types of what it reads.
type Json = Record<string, any>
const document = generateOpenApi(OPERATIONS, {
  serverUrl: 'https://workgraph.example',
  version: '0.1.0',
  tags: TAGS,
}) as Json
const schemas = document.components.schemas as Record<string, Json>
const METHODS = ['get', 'put', 'post', 'patch', 'delete']

const operations = Object.entries(document.paths as Record<string, Json>).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method] as Json })),
)
const operation = (id: string) => {
  const found = operations.find((o) => o.op.operationId === id)
  if (!found) throw new Error(`no operation ${id}`)
  return found.op
}
const bodyRef = (op: Json): string | undefined => op.requestBody?.content?.['application/json']?.schema?.$ref
const nameOf = (ref: string) => ref.replace('#/components/schemas/', '')

/** The operation, its body's component, and the resource whose fields the body takes. */
const CORE_BODIES: [operationId: string, body: string, resource: string][] = [
  ['tasks.create', 'TaskCreate', 'Task'],
  ['tasks.update', 'TaskUpdate', 'Task'],
  ['projects.create', 'ProjectCreate', 'Project'],
  ['projects.update', 'ProjectUpdate', 'Project'],
  ['programs.create', 'ProgramCreate', 'Program'],
  ['programs.update', 'ProgramUpdate', 'Program'],
  ['initiatives.create', 'InitiativeCreate', 'Initiative'],
  ['initiatives.update', 'InitiativeUpdate', 'Initiative'],
  ['milestones.create', 'MilestoneCreate', 'Milestone'],
  ['milestones.update', 'MilestoneUpdate', 'Milestone'],
  ['cycles.create', 'CycleCreate', 'Cycle'],
  ['cycles.update', 'CycleUpdate', 'Cycle'],
  ['tasks.comments.create', 'CommentCreate', 'Comment'],
  ['documents.comments.create', 'CommentCreate', 'Comment'],
  ['comments.update', 'CommentUpdate', 'Comment'],
  ['teams.create', 'TeamCreate', 'Team'],
  ['teams.update', 'TeamUpdate', 'Team'],
  ['orgs.create', 'OrgCreate', 'Org'],
  ['orgs.update', 'OrgUpdate', 'Org'],
  ['members.update', 'MemberUpdate', 'Member'],
  ['labels.create', 'LabelCreate', 'Label'],
  ['labels.update', 'LabelUpdate', 'Label'],
  ['me.update', 'MeUpdate', 'Profile'],
  ['documents.create', 'DocumentCreate', 'Document'],
  ['documents.update', 'DocumentUpdate', 'Document'],
  ['projects.updates.create', 'StatusUpdateCreate', 'StatusUpdate'],
  ['updates.update', 'StatusUpdateUpdate', 'StatusUpdate'],
  ['views.create', 'ViewCreate', 'View'],
  ['views.update', 'ViewUpdate', 'View'],
  ['tasks.links.create', 'LinkCreate', 'Link'],
  ['links.update', 'LinkUpdate', 'Link'],
]

/** What a client's type of a field is made of: its types (null aside), format, enum and pattern. */
function fieldType(schema: Json): Json {
  const resolved = schema.$ref ? schemas[nameOf(schema.$ref)]! : schema
  const types = ([] as string[]).concat(resolved.type ?? []).filter((t) => t !== 'null')
  return {
    type: types.sort(),
    format: resolved.format,
    enum: resolved.enum?.filter((v: unknown) => v !== null),
    pattern: resolved.pattern,
    items: resolved.items ? fieldType(resolved.items) : undefined,
  }
}
const nullable = (schema: Json) =>
  ([] as string[]).concat((schema.$ref ? schemas[nameOf(schema.$ref)]! : schema).type ?? []).includes('null')

describe('request bodies', () => {
  it('are all a $ref to a named component, in the served document', () => {
    const withJson = operations.filter((o) => o.op.requestBody?.content?.['application/json'])
    expect(withJson.length).toBeGreaterThan(100)
    const inline = withJson.filter((o) => !bodyRef(o.op)).map((o) => o.op.operationId)
    expect(inline).toEqual([])
    for (const { op } of withJson) {
      const name = nameOf(bodyRef(op)!)
      expect(schemas[name], `${op.operationId} → ${name}`).toBeDefined()
      expect(name, op.operationId).toMatch(/^[A-Z][A-Za-z0-9]*$/)
      expect(name, op.operationId).not.toMatch(/Body$/)
    }
    expect(namedRequestBodies(document)).toEqual([])
  })

  it('name the core bodies <Resource><Act>, one component shared where the body is one', () => {
    for (const [id, body] of CORE_BODIES)
      expect(bodyRef(operation(id)), id).toBe(`#/components/schemas/${body}`)
    // tasks.batchCreate takes items of TaskCreate's fields (inline: Scalar refuses the $ref there).
    const batch = schemas[nameOf(bodyRef(operation('tasks.batchCreate'))!)]!
    expect(batch.properties.items.items.properties).toEqual(schemas.TaskCreate!.properties)
    expect(batch.properties.items.items.required).toEqual(schemas.TaskCreate!.required)
  })

  it('give each field the type the resource reads back', () => {
    for (const [id, bodyName, resourceName] of CORE_BODIES) {
      const body = schemas[bodyName]!
      const resource = schemas[resourceName]!
      const shared = Object.keys(body.properties).filter((key) => key in resource.properties)
      expect(shared.length, bodyName).toBeGreaterThan(0)
      for (const key of shared) {
        const sent = body.properties[key]
        const read = resource.properties[key]
        // `fields` is written as a patch (null clears a field), read as values.
        if (key === 'fields') continue
        expect(fieldType(sent), `${id}: ${bodyName}.${key} vs ${resourceName}.${key}`).toEqual(
          fieldType(read),
        )
        // A body may refuse null where the resource holds it (a comment's body), never the reverse.
        if (nullable(sent)) expect(nullable(read), `${bodyName}.${key} nullable`).toBe(true)
      }
    }
  })

  it('mark the inputs that are not fields of the resource write-only', () => {
    const update = schemas.ProjectUpdate!
    for (const key of ['openTasks', 'moveTasksTo', 'reason']) {
      expect(update.properties[key].writeOnly, key).toBe(true)
      expect(schemas.Project!.properties[key], key).toBeUndefined()
    }
  })

  it('answer PATCH /v1/me with Me, as GET /v1/me', () => {
    const answer = (id: string) => operation(id).responses['200'].content['application/json'].schema
    expect(answer('me.update')).toEqual({ $ref: '#/components/schemas/Me' })
    expect(answer('me.update')).toEqual(answer('me.get'))
  })
})

describe('the name of a body without an $id', () => {
  it('is the operation id with its nouns singular, then the act', () => {
    expect(bodySchemaName('tasks.blockers.add')).toBe('TaskBlockerAdd')
    expect(bodySchemaName('tasks.timeEntries.create')).toBe('TaskTimeEntryCreate')
    expect(bodySchemaName('projectStatuses.move')).toBe('ProjectStatusMove')
    expect(bodySchemaName('approvalPolicies.update')).toBe('ApprovalPolicyUpdate')
    expect(bodySchemaName('orgs.settings.update')).toBe('OrgSettingsUpdate')
    expect(bodySchemaName('me.preferences.update')).toBe('MePreferencesUpdate')
    expect(bodySchemaName('me.dailyPlan.items.move')).toBe('MeDailyPlanItemMove')
    expect(bodySchemaName('triage.accept')).toBe('TriageAccept')
  })

  it('fails the document when two operations would share it', () => {
    const duplicate = OPERATIONS.find((op) => op.id === 'tasks.duplicate')!
    expect((duplicate.body as { $id?: string }).$id).toBeUndefined()
    const twin = { ...duplicate, id: 'task.duplicate', path: '/v1/orgs/{orgId}/task/{taskId}/duplicate' }
    expect(() =>
      generateOpenApi([duplicate, twin], { serverUrl: 'https://workgraph.example', version: '0' }),
    ).toThrow('The request bodies of tasks.duplicate and task.duplicate would both be named TaskDuplicate')
  })

  it('is refused by the lint when the body is inline', () => {
    const inline = structuredClone(document)
    inline.paths['/v1/orgs/{orgId}/teams'].post.requestBody.content['application/json'].schema = {
      type: 'object',
    }
    expect(namedRequestBodies(inline).map((p: { operationId: string }) => p.operationId)).toEqual([
      'teams.create',
    ])
  })
})
