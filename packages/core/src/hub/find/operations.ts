import { Type } from '@sinclair/typebox'
import { declareOperation } from '../../kernel/operation.ts'
import { commaListPattern } from '../../kernel/schema-types.ts'
import { PollQueryFields, StreamEvent } from '../../streams/schema.ts'
import { hubExamples as ex } from '../examples.ts'
import { HUB_WORKSPACES_MAX } from '../fanout.ts'
import { hubMoreExamples as more } from '../more-examples.ts'
import { ACROSS, hubListOperation, obj, TAG } from '../operation-parts.ts'
import {
  HubPageOf,
  HubPageQuery,
  PartialOrg,
  ResolvedRecord,
  SearchHitSchema,
  TypeaheadHitSchema,
} from '../schemas.ts'
import { HUB_SEARCH_TYPES, TYPEAHEAD_TYPES } from '../storage.ts'
import { hubActivity } from './activity.ts'
import { hubResolve, RESOLVABLE_REF } from './resolve.ts'
import { HUB_SEARCH_MAX_TERMS, hubSearch } from './search.ts'
import { hubTypeahead, TYPEAHEAD_LIMIT_DEFAULT, TYPEAHEAD_LIMIT_MAX } from './typeahead.ts'

/** Finding things across workspaces: search, recent activity, resolving references and typeahead. */
export const hubSearchOperation = declareOperation({
  id: 'hub.search',
  method: 'GET',
  path: '/v1/hub/search',
  tag: TAG,
  scope: 'work:read',
  summary: 'Search all my workspaces',
  description: `Ranked full-text search over tasks, projects, initiatives, documents, comments and status updates in every workspace you belong to, through each database's own full-text engine (SQLite FTS5, Postgres \`tsvector\` with a GIN index). Every word must begin a word of the title or text. Only records you may view are searched. Each hit's \`score\` is its rank relative to the best hit of its workspace. A \`q\` without a word of letters or digits, or with more than ${HUB_SEARCH_MAX_TERMS} words, is 422 \`rule_violated\`. ${ACROSS}`,
  query: obj({
    q: Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'Up to 8 words; each must begin a word of the record.',
    }),
    types: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: commaListPattern(HUB_SEARCH_TYPES),
        description: `Comma-separated subset of ${HUB_SEARCH_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
      }),
    ),
    ...HubPageQuery,
  }),
  response: HubPageOf(SearchHitSchema, 'Hits, best first.'),
  status: 200,
  errors: ['rule_violated', 'invalid_cursor'],
  examples: ex.search,
  run: (ctx, { query }) => hubSearch(ctx, query as never),
})

export const hubActivityOperation = hubListOperation({
  id: 'hub.activity',
  path: '/v1/hub/activity',
  summary: 'Recent events in all my workspaces',
  description: `The events you may see in every workspace, newest first (\`hub.stream\` is the same log oldest first, for following it). Filters: \`kinds\`, \`actorId\`, \`recordId\`. ${ACROSS}`,
  query: {
    kinds: PollQueryFields.kinds,
    actorId: Type.Optional(
      Type.String({ maxLength: 64, description: 'Only changes made by this member or agent.' }),
    ),
    recordId: Type.Optional(Type.String({ maxLength: 64, description: 'Only events about this record.' })),
  },
  item: StreamEvent,
  order: 'Events, newest first.',
  examples: ex.activity,
  run: (ctx, query) => hubActivity(ctx, query as never),
})

export const hubResolveOperation = declareOperation({
  id: 'hub.resolve',
  method: 'GET',
  path: '/v1/hub/resolve',
  tag: TAG,
  scope: 'work:read',
  summary: 'Resolve a task key or record id',
  description:
    'Which record a reference names, in each workspace where you may view it: a task key (`ENG-42`, current or previous; every workspace has its own keys, so there may be several) or a task, project, initiative or document id. Workspaces that fail are listed in `partial`.',
  query: obj({
    ref: Type.String({
      minLength: 1,
      maxLength: 64,
      pattern: RESOLVABLE_REF,
      description: 'A task key or a `task_`, `proj_`, `ini_` or `doc_` id.',
    }),
  }),
  response: obj({
    data: Type.Array(ResolvedRecord, {
      maxItems: HUB_WORKSPACES_MAX,
      description: 'At most one per workspace.',
    }),
    partial: Type.Array(PartialOrg, { description: 'Workspaces whose look-up failed or timed out.' }),
  }),
  status: 200,
  errors: [],
  examples: ex.resolve,
  run: (ctx, { query }) => hubResolve(ctx, (query as { ref: string }).ref),
})

export const hubTypeaheadOperation = declareOperation({
  id: 'hub.typeahead',
  method: 'GET',
  path: '/v1/hub/typeahead',
  tag: TAG,
  scope: 'work:read',
  summary: 'Names beginning with a prefix',
  description: `For pickers: people, teams, projects, programs, initiatives, milestones and views whose name begins with \`q\` (ignoring case), and tasks whose key does (\`ENG-4\` finds ENG-4, ENG-41, …), in every workspace, among what you may view there. At most \`limit\` per type, grouped by type; exact matches first, then shorter names. Use \`hub.search\` for words inside text. Workspaces that fail are listed in \`partial\`.`,
  query: obj({
    q: Type.String({ minLength: 1, maxLength: 64, description: 'What was typed so far.' }),
    types: Type.Optional(
      Type.String({
        maxLength: 100,
        pattern: commaListPattern(TYPEAHEAD_TYPES),
        description: `Comma-separated subset of ${TYPEAHEAD_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
      }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: TYPEAHEAD_LIMIT_MAX,
        default: TYPEAHEAD_LIMIT_DEFAULT,
        description: `Per type (default ${TYPEAHEAD_LIMIT_DEFAULT}, max ${TYPEAHEAD_LIMIT_MAX}).`,
      }),
    ),
    orgId: HubPageQuery.orgId,
  }),
  response: obj({
    data: Type.Array(TypeaheadHitSchema, {
      maxItems: TYPEAHEAD_LIMIT_MAX * TYPEAHEAD_TYPES.length,
      description: 'Grouped by type, best first in each.',
    }),
    partial: Type.Array(PartialOrg, { description: 'Workspaces whose part failed or timed out.' }),
  }),
  status: 200,
  errors: [],
  examples: more.typeahead,
  run: (ctx, { query }) => hubTypeahead(ctx, query as never),
})
