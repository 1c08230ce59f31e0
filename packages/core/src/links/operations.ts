import { Type } from '@sinclair/typebox'
import { withArticle } from '../kernel/article.ts'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { LinkId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { MoveBody } from '../kernel/ordering.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { linkItemExamples, parentLinkExamples } from './examples.ts'
import { Link, type LinkParentType } from './schemas.ts'
import {
  createLink,
  deleteLink,
  type LinkFields,
  listLinks,
  moveLink,
  requireLink,
  updateLink,
} from './service.ts'

const itemRule =
  'It serves the links of tasks, projects, programs and initiatives alike: reading needs `view` on the ' +
  'link’s parent, a change `contribute` on it; a link of a parent the caller cannot view is a 404.'
const itemPath = '/v1/orgs/{orgId}/links/{linkId}'

/**
 * `links.get/update/delete/move`: one set of item operations for the URL links of every kind of
 * parent, as status updates share `updates.*`.
 */
const itemOperations = resourceOperations({
  name: 'link',
  plural: 'links',
  tag: 'Links',
  schema: Link,
  collectionPath: '/v1/orgs/{orgId}/links',
  idParam: 'linkId',
  idBrand: 'LinkId',
  target: (p) => ({ type: 'link', id: p.linkId! }),
  capabilities: { update: 'contribute', delete: 'contribute' },
  updateBody: Type.Object(optionalFieldsOf(Link, { url: true, title: true }), {
    $id: 'LinkUpdate',
    additionalProperties: false,
    minProperties: 1,
  }),
  requires: {
    delete: "`contribute` on the link's parent; on a task, `manage` to remove a link someone else added",
  },
  descriptions: {
    get: `One URL link of a task, a project, a program or an initiative. ${itemRule}`,
    update: `Changes the URL or the title; \`links.move\` changes its place. Emits \`link.updated\` (on a task, also recorded in its history as \`links\`). ${itemRule}`,
    delete: `Removes the link. On a task, your own link needs \`contribute\`, someone else's \`manage\`. Emits \`link.deleted\`. ${itemRule}`,
  },
  examples: linkItemExamples,
  handlers: {
    get: (ctx, p) => requireLink(ctx, p.linkId as LinkId),
    update: (ctx, p, body) => updateLink(ctx, p.linkId as LinkId, body as LinkFields),
    delete: (ctx, p) => deleteLink(ctx, p.linkId as LinkId),
  },
})

const move = declareOperation({
  id: 'links.move',
  method: 'POST',
  path: `${itemPath}/move`,
  tag: 'Links',
  scope: 'work:write',
  summary: 'Move a link before or after another',
  description:
    'Puts the link just before `beforeId` or just after `afterId` (exactly one), another link of the same ' +
    "parent; the parent's positions are renumbered from 0. A move that changes nothing emits nothing; " +
    `otherwise \`link.moved\` carries the new order. ${itemRule}`,
  params: Type.Object(paramsOf(`${itemPath}/move`), { additionalProperties: false }),
  body: MoveBody('LinkId', 'link'),
  response: Link,
  status: 200,
  capability: 'contribute',
  target: ({ params }) => ({ type: 'link', id: params.linkId as string }),
  errors: ['not_found', 'reference_not_found'],
  examples: linkItemExamples.move,
  run: (ctx, { params, body }) =>
    moveLink(ctx, params.linkId as LinkId, body as { beforeId?: string; afterId?: string }),
})

/**
 * `<plural>.links.list` and `<plural>.links.create` under a parent's path: the programs and
 * initiatives groups declare theirs with this, next to their other operations.
 */
export function parentLinkOperations(c: {
  parentType: LinkParentType
  /** `projects`, for the ids `projects.links.list` and `projects.links.create`. */
  plural: string
  tag: string
  /** The parent's item path, e.g. `/v1/orgs/{orgId}/projects/{projectId}`. */
  itemPath: string
  idParam: string
  idPrefix: string
}): AnyOperation[] {
  const path = `${c.itemPath}/links`
  const parentId = (p: Record<string, unknown>) => p[c.idParam] as string
  const examples = parentLinkExamples(c.parentType, c.idPrefix)
  return [
    subListOperation({
      id: `${c.plural}.links.list`,
      path,
      tag: c.tag,
      summary: `List ${withArticle(c.parentType)}'s links`,
      description: `Its URL links by position (then creation), for anyone who can view the ${c.parentType}.`,
      item: Link,
      itemName: 'Link',
      examples: examples.list,
      run: (ctx, p, query) => listLinks(ctx, c.parentType, parentId(p), query),
    }),
    declareOperation({
      id: `${c.plural}.links.create`,
      method: 'POST',
      path,
      tag: c.tag,
      scope: 'work:write',
      summary: `Add a link to ${withArticle(c.parentType)}`,
      description:
        `Adds an http or https URL with an optional title, last (\`links.move\` reorders). Needs \`contribute\` ` +
        `on the ${c.parentType}. Emits \`link.created\`${c.parentType === 'task' ? " and records it in the task's history (`links`)" : ''}. ` +
        '`links.get/update/move/delete` serve it after.',
      params: Type.Object(paramsOf(path), { additionalProperties: false }),
      // One body for every parent's `…links.create`.
      body: Type.Object(
        { ...fieldsOf(Link, { url: true }), ...optionalFieldsOf(Link, { title: true }) },
        { $id: 'LinkCreate', additionalProperties: false },
      ),
      response: Link,
      status: 201,
      capability: 'contribute',
      target: ({ params }) => ({ type: c.parentType, id: parentId(params) }),
      errors: ['not_found'],
      location: 'links.get',
      examples: examples.create,
      run: (ctx, { params, body }) =>
        createLink(ctx, c.parentType, parentId(params), body as LinkFields & { url: string }),
    }),
  ]
}

export const linkOperations: AnyOperation[] = [
  ...parentLinkOperations({
    parentType: 'task',
    plural: 'tasks',
    tag: 'Tasks',
    itemPath: '/v1/orgs/{orgId}/tasks/{taskId}',
    idParam: 'taskId',
    idPrefix: 'task',
  }),
  ...parentLinkOperations({
    parentType: 'project',
    plural: 'projects',
    tag: 'Projects',
    itemPath: '/v1/orgs/{orgId}/projects/{projectId}',
    idParam: 'projectId',
    idPrefix: 'proj',
  }),
  ...itemOperations,
  move,
]
