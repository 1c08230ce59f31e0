import { Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import { Nullable, NullableTimestamp, Timestamp } from '../kernel/schema-types.ts'
import type { ConsentId, WebSessionId } from '../oauth/store.ts'
import { consentExample, consentsExample, sessionsExample } from './examples.ts'
import { requireFirstParty } from './first-party.ts'

export const WebSession = Type.Object(
  {
    id: IdSchema('WebSessionId'),
    userAgent: Nullable(Type.String(), 'The browser that signed in.'),
    createdAt: Timestamp('When the person signed in.'),
    expiresAt: Timestamp('When the session ends unless it is signed out first.'),
  },
  { $id: 'WebSession', additionalProperties: false },
)

export const Consent = Type.Object(
  {
    id: IdSchema('ConsentId'),
    clientId: Type.String({
      description: 'The OAuth client: a registered id, or the URL of its metadata document.',
    }),
    clientName: Type.String(),
    scopes: Type.Array(Type.String(), { description: 'The scopes the person allowed.' }),
    createdAt: Timestamp('When the person first consented.'),
    updatedAt: Timestamp('When the consent last changed (a wider scope).'),
    lastUsedAt: NullableTimestamp(
      'When the app last obtained an access token on it (signing in or refreshing); tokens then work for 15 minutes. Null if never.',
    ),
  },
  { $id: 'Consent', additionalProperties: false },
)

const principalUser = (ctx: { principal: { userId: string } | null }) => ctx.principal!.userId as never

// Bounded lists (docs/api-conventions.md, "Pagination"): a person's live web sessions and consents
// are few, so they are answered whole, up to these bounds (the schema's `maxItems`).
const LISTED_SESSIONS_MAX = 200
const LISTED_CONSENTS_MAX = 500

export const meCatalogue: AnyOperation[] = [
  declareOperation({
    id: 'me.sessions.list',
    method: 'GET',
    path: '/v1/me/sessions',
    tag: 'Me',
    scope: 'work:read',
    summary: 'List my web sessions',
    description: 'The signed-in browsers of the caller, newest last (at most 200).',
    response: Type.Object(
      { data: Type.Array(WebSession, { maxItems: LISTED_SESSIONS_MAX }) },
      { additionalProperties: false },
    ),
    status: 200,
    errors: [],
    examples: sessionsExample,
    async run(ctx) {
      const rows = await ctx.store.oauth.listSessions(principalUser(ctx), ctx.now)
      return {
        data: rows.slice(0, LISTED_SESSIONS_MAX).map((r) => ({
          id: r.id,
          userAgent: r.userAgent,
          createdAt: r.createdAt,
          expiresAt: r.expiresAt,
        })),
      }
    },
  }),
  declareOperation({
    id: 'me.sessions.revoke',
    method: 'DELETE',
    path: '/v1/me/sessions/{sessionId}',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Sign a web session out',
    description:
      "Ends one of the caller's signed-in browsers. Only the service's own apps may do this (403 `first_party_only` for others).",
    params: Type.Object({ sessionId: IdSchema('WebSessionId') }, { additionalProperties: false }),
    response: null,
    status: 204,
    errors: ['not_found', 'first_party_only'],
    async run(ctx, { params }) {
      requireFirstParty(ctx)
      const deleted = await ctx.store.oauth.deleteSession(
        principalUser(ctx),
        params.sessionId as WebSessionId,
      )
      if (!deleted) throw notFound('Session')
      return undefined
    },
  }),
  declareOperation({
    id: 'me.sessions.revokeOthers',
    method: 'POST',
    path: '/v1/me/sessions/revoke-others',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Sign every other web session out',
    description:
      "Ends every signed-in browser of the caller except `keep`, the one they are using (API tokens carry no browser session, so the app names it). `keep` must be a live session of the caller (404 `not_found` otherwise, and nothing ends). Answers how many sessions ended. Only the service's own apps may do this (403 `first_party_only` for others).",
    body: Type.Object(
      { keep: IdSchema('WebSessionId', 'The session to keep signed in.') },
      { additionalProperties: false },
    ),
    response: Type.Object(
      { revoked: Type.Integer({ minimum: 0, description: 'How many sessions ended.' }) },
      { additionalProperties: false },
    ),
    status: 200,
    errors: ['not_found', 'first_party_only'],
    examples: { request: { keep: 'wsn_01JD3Q2R4S5T6V7W8X9YZABCDE' }, response: { revoked: 2 } },
    async run(ctx, { body }) {
      requireFirstParty(ctx)
      const user = principalUser(ctx)
      const live = await ctx.store.oauth.listSessions(user, ctx.now)
      if (!live.some((s) => s.id === body.keep)) throw notFound('Session')
      return { revoked: await ctx.store.oauth.deleteSessionsExcept(user, body.keep as WebSessionId) }
    },
  }),
  declareOperation({
    id: 'me.consents.list',
    method: 'GET',
    path: '/v1/me/consents',
    tag: 'Me',
    scope: 'work:read',
    summary: 'List my connected apps',
    description: 'Every OAuth client the caller consented to, with the scopes allowed (at most 500).',
    response: Type.Object(
      { data: Type.Array(Consent, { maxItems: LISTED_CONSENTS_MAX }) },
      { additionalProperties: false },
    ),
    status: 200,
    errors: [],
    examples: consentsExample,
    async run(ctx) {
      const rows = await ctx.store.oauth.listGrants(principalUser(ctx))
      return { data: rows.slice(0, LISTED_CONSENTS_MAX).map(({ userId: _user, ...grant }) => grant) }
    },
  }),
  declareOperation({
    id: 'me.consents.get',
    method: 'GET',
    path: '/v1/me/consents/{consentId}',
    tag: 'Me',
    scope: 'work:read',
    summary: 'Get a connected app',
    description:
      "One app the caller consented to: the scopes allowed, when they first consented and when the app last obtained a token. An app may read its own connection; reading another app's is for the service's own apps (403 `first_party_only`).",
    params: Type.Object({ consentId: IdSchema('ConsentId') }, { additionalProperties: false }),
    response: Consent,
    status: 200,
    errors: ['not_found', 'first_party_only'],
    etag: true,
    examples: { response: consentExample },
    async run(ctx, { params }) {
      if (ctx.principal?.grantId !== params.consentId) requireFirstParty(ctx)
      const grant = await ctx.store.oauth.findGrant(principalUser(ctx), params.consentId as ConsentId)
      if (!grant) throw notFound('Consent')
      const { userId: _user, ...connection } = grant
      return connection
    },
  }),
  declareOperation({
    id: 'me.consents.revoke',
    method: 'DELETE',
    path: '/v1/me/consents/{consentId}',
    tag: 'Me',
    scope: 'work:write',
    summary: 'Disconnect an app',
    description:
      "Deletes the consent with its codes and refresh tokens. The very next request with any of its access tokens fails; the app must ask for authorization again. An app may disconnect itself; disconnecting another app is for the service's own apps (403 `first_party_only`).",
    params: Type.Object({ consentId: IdSchema('ConsentId') }, { additionalProperties: false }),
    response: null,
    status: 204,
    errors: ['not_found', 'first_party_only'],
    async run(ctx, { params }) {
      if (ctx.principal?.grantId !== params.consentId) requireFirstParty(ctx)
      const deleted = await ctx.store.oauth.deleteGrant(params.consentId as ConsentId, principalUser(ctx))
      if (!deleted) throw notFound('Consent')
      return undefined
    },
  }),
]
