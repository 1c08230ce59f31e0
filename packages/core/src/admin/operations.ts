import { type TProperties, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { type DomainId, IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Nullable, PageOf, StringEnum } from '../kernel/schema-types.ts'
import { AUDIT_KINDS, listAuditLog } from './audit.ts'
import { createDomain, deleteDomain, listDomains, requireDomain, verifyDomain } from './domains.ts'
import { auditExamples, domainExamples, settingsExamples } from './examples.ts'
import { AuditEntry, Domain, DomainName, InvitationPolicySchema, OrgSettings } from './schemas.ts'
import { getOrgSettings, updateOrgSettings } from './settings.ts'

const TAG = 'Administration'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const settingsPath = '/v1/orgs/{orgId}/settings'
const domainsPath = '/v1/orgs/{orgId}/domains'
const auditPath = '/v1/orgs/{orgId}/audit-log'
const did = (p: Record<string, string>) => p.domainId as DomainId

const settings: AnyOperation[] = [
  declareOperation({
    id: 'orgs.settings.get',
    method: 'GET',
    path: settingsPath,
    tag: TAG,
    scope: 'work:read',
    summary: "Get the workspace's settings",
    description:
      'Every member reads them (clients preselect the default team); the defaults until an admin changes them.',
    params: obj(paramsOf(settingsPath)),
    response: OrgSettings,
    status: 200,
    errors: [],
    etag: true,
    examples: settingsExamples.get,
    run: (ctx) => getOrgSettings(ctx),
  }),
  declareOperation({
    id: 'orgs.settings.update',
    method: 'PATCH',
    path: settingsPath,
    tag: TAG,
    scope: 'work:write',
    capability: 'manage',
    summary: "Change the workspace's settings",
    description:
      'Owners and admins. The default team must be an active team (422 `reference_not_found`); ' +
      '`invitationPolicy: verified_domains` needs at least one verified domain (409 `conflict`). ' +
      'Send `If-Match` with an ETag to change only unchanged settings.',
    params: obj(paramsOf(settingsPath)),
    body: Type.Object(
      {
        defaultTeamId: Type.Optional(Nullable(IdSchema('TeamId'), 'An active team, or null for none.')),
        invitationPolicy: Type.Optional(InvitationPolicySchema),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: OrgSettings,
    status: 200,
    errors: ['reference_not_found', 'conflict', 'precondition_failed'],
    precondition: 'orgs.settings.get',
    examples: settingsExamples.update,
    run: (ctx, { body }) => updateOrgSettings(ctx, body as never),
  }),
]

const domainCrud = resourceOperations({
  name: 'domain',
  plural: 'domains',
  tag: TAG,
  schema: Domain,
  collectionPath: domainsPath,
  idParam: 'domainId',
  idBrand: 'DomainId',
  target: () => ({ type: 'org' }),
  capabilities: { create: 'manage', delete: 'manage' },
  createBody: Type.Object({ domain: DomainName }, { additionalProperties: false }),
  listQuery: {
    status: Type.Optional(
      StringEnum(['pending', 'verified'] as const, { description: 'Only domains in this state.' }),
    ),
  },
  errors: { create: ['already_exists'], delete: ['conflict'] },
  descriptions: {
    list: 'The email domains of the workspace, by name. Owners and admins only.',
    get: 'Owners and admins only.',
    create:
      'Adds a domain as `pending` and answers the DNS TXT record to publish (`txtRecord`); then call ' +
      '`domains.verify`. The same domain twice is a 409 `already_exists`.',
    delete:
      'Removes the domain. Under the `verified_domains` invitation policy the last verified domain cannot be ' +
      'removed (409 `conflict`).',
  },
  examples: { list: domainExamples.list, get: domainExamples.get, create: domainExamples.create },
  handlers: {
    list: (ctx, _p, query) => listDomains(ctx, query),
    get: (ctx, p) => requireDomain(ctx, did(p)),
    create: (ctx, _p, body) => createDomain(ctx, body),
    delete: (ctx, p) => deleteDomain(ctx, did(p)),
  },
})
// Domains are an admin's business: reading them also needs `manage`.
const domains = domainCrud.map((op) =>
  op.method === 'GET'
    ? { ...op, capability: 'manage' as const, target: () => ({ type: 'org' as const }) }
    : op,
)

const verifyPath = `${domainsPath}/{domainId}/verify`
domains.push(
  declareOperation({
    id: 'domains.verify',
    method: 'POST',
    path: verifyPath,
    tag: TAG,
    scope: 'work:write',
    capability: 'manage',
    summary: "Check a domain's TXT record",
    description:
      'Looks up `txtRecord.name` and compares the TXT values with `txtRecord.value`. Found: the domain is ' +
      '`verified` for good. Not found, another value or a failed lookup: it stays `pending`, with the reason ' +
      'in `lastCheckError` (an answer, not an error: try again once DNS has propagated).',
    params: obj(paramsOf(verifyPath)),
    response: Domain,
    status: 200,
    errors: ['not_found'],
    examples: domainExamples.verify,
    run: (ctx, { params }) => verifyDomain(ctx, did(params)),
  }),
)

const categories = Object.keys(AUDIT_KINDS) as (keyof typeof AUDIT_KINDS)[]
const audit: AnyOperation[] = [
  declareOperation({
    id: 'auditLog.list',
    method: 'GET',
    path: auditPath,
    tag: TAG,
    scope: 'work:read',
    capability: 'manage',
    summary: 'List administrative changes',
    description:
      'Changes to the workspace, its settings and domains, roles, invitations, grants, team membership, ' +
      'agents and connections, newest first, with who made them. Owners and admins only. It reads the event ' +
      'log, so it reaches back as far as events are retained (docs/admin.md).',
    params: obj(paramsOf(auditPath)),
    query: Type.Object(
      {
        ...PageQuery,
        category: Type.Optional(
          StringEnum(categories, { description: 'Only changes of this kind of record.' }),
        ),
        kind: Type.Optional(
          StringEnum(Object.values(AUDIT_KINDS).flat(), {
            description: 'Only this event kind, e.g. `member.updated`.',
          }),
        ),
        actorId: Type.Optional(ActorIdSchema),
        resourceId: Type.Optional(
          Type.String({ maxLength: 64, description: 'Only changes of this record.' }),
        ),
        since: Type.Optional(Type.String({ format: 'date-time', description: 'At or after this time.' })),
        until: Type.Optional(
          Type.String({
            format: 'date-time',
            description: 'Before this time; after `since` (else 422 `rule_violated`).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: PageOf(AuditEntry, 'AuditEntry'),
    status: 200,
    errors: ['invalid_cursor', 'rule_violated'],
    examples: auditExamples.list,
    run: (ctx, { query }) => listAuditLog(ctx, query),
  }),
]

/** Workspace settings, email domains and the audit log: docs/admin.md. */
export const adminOperations: AnyOperation[] = [...settings, ...domains, ...audit]
