import { Type } from '@sinclair/typebox'
import { withArticle } from '../kernel/article.ts'
import type { ResourceLinkId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { LinkTitle, LinkUrl } from '../tasks/depth-schemas.ts'
import { containerLinkExamples, linkItemExamples } from './examples.ts'
import { type LinkParentType, LinkPosition, ResourceLink } from './schemas.ts'
import { createLink, deleteLink, type LinkFields, listLinks, requireLink, updateLink } from './service.ts'

const itemRule =
  'Reading needs `view` on the link’s project, program or initiative, writing `contribute` on it; a link of a ' +
  'container the caller cannot view is a 404.'

/**
 * `links.get/update/delete`: one set of item operations for the URL resources of every kind of
 * container, as status updates share `updates.*`.
 */
const itemOperations = resourceOperations({
  name: 'link',
  plural: 'links',
  tag: 'Links',
  schema: ResourceLink,
  collectionPath: '/v1/orgs/{orgId}/links',
  idParam: 'resourceLinkId',
  idBrand: 'ResourceLinkId',
  target: (p) => ({ type: 'resource_link', id: p.resourceLinkId! }),
  capabilities: { update: 'contribute', delete: 'contribute' },
  updateBody: Type.Object(
    { url: Type.Optional(LinkUrl), title: Type.Optional(LinkTitle), position: Type.Optional(LinkPosition) },
    { additionalProperties: false, minProperties: 1 },
  ),
  descriptions: {
    get: `One URL resource of a project, a program or an initiative. ${itemRule}`,
    update: `Changes the URL, the title or the position (to reorder: any number between its neighbours'). ${itemRule}`,
    delete: `Removes the URL resource. ${itemRule}`,
  },
  examples: linkItemExamples,
  handlers: {
    get: (ctx, p) => requireLink(ctx, p.resourceLinkId as ResourceLinkId),
    update: (ctx, p, body) => updateLink(ctx, p.resourceLinkId as ResourceLinkId, body as LinkFields),
    delete: (ctx, p) => deleteLink(ctx, p.resourceLinkId as ResourceLinkId),
  },
})

/**
 * `<plural>.links.list` and `<plural>.links.create` under a container's path: the programs and
 * initiatives groups declare theirs with this, next to their other operations.
 */
export function containerLinkOperations(c: {
  parentType: LinkParentType
  /** `projects`, for the ids `projects.links.list` and `projects.links.create`. */
  plural: string
  tag: string
  /** The container's item path, e.g. `/v1/orgs/{orgId}/projects/{projectId}`. */
  itemPath: string
  idParam: string
  idPrefix: string
}): AnyOperation[] {
  const path = `${c.itemPath}/links`
  const parentId = (p: Record<string, unknown>) => p[c.idParam] as string
  const examples = containerLinkExamples(c.parentType, c.idPrefix)
  return [
    subListOperation({
      id: `${c.plural}.links.list`,
      path,
      tag: c.tag,
      summary: `List ${withArticle(c.parentType)}'s links`,
      description: `Its URL resources by position (then creation), for anyone who can view the ${c.parentType}.`,
      item: ResourceLink,
      itemName: 'ResourceLink',
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
        `Adds an http or https URL with an optional title, last unless \`position\` is given. Needs \`contribute\` ` +
        `on the ${c.parentType}. \`links.get/update/delete\` serve it after.`,
      params: Type.Object(paramsOf(path), { additionalProperties: false }),
      body: Type.Object(
        { url: LinkUrl, title: Type.Optional(LinkTitle), position: Type.Optional(LinkPosition) },
        { additionalProperties: false },
      ),
      response: ResourceLink,
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
  ...containerLinkOperations({
    parentType: 'project',
    plural: 'projects',
    tag: 'Projects',
    itemPath: '/v1/orgs/{orgId}/projects/{projectId}',
    idParam: 'projectId',
    idPrefix: 'proj',
  }),
  ...itemOperations,
]
