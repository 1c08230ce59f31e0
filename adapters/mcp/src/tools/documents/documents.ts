import { Type } from '@sinclair/typebox'
import { IdSchema, type OrgId, ProblemError } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, TeamRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

const ProjectRef = IdSchema('ProjectId', 'The project, by id.')

/** The holder named by exactly one of `team` (key, name or id) and `project` (id). */
async function holderOf(call: ToolCall, orgId: OrgId, args: { team?: string; project?: string }) {
  if (args.team && args.project) {
    throw new ProblemError('validation_failed', 'Name a `team` or a `project`, not both.')
  }
  if (args.project) return { holderType: 'project', holderId: args.project }
  if (args.team) return { holderType: 'team', holderId: await call.resolve(orgId, 'team', args.team) }
  return null
}

const summary = (d: any) => ({
  id: d.id,
  title: d.title,
  holderType: d.holderType,
  holderId: d.holderId,
  version: d.version,
  updatedAt: d.updatedAt,
})

/** Where the first search term occurs in the content, with some text around it. */
function excerpt(content: string, query: string): string {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}\p{M}]+/u)
    .filter(Boolean)
  const lower = content.toLowerCase()
  const at = Math.max(
    0,
    Math.min(...words.map((w) => lower.indexOf(w)).filter((i) => i >= 0), content.length),
  )
  const start = Math.max(0, at - 80)
  const text = content
    .slice(start, start + 240)
    .replace(/\s+/g, ' ')
    .trim()
  return `${start > 0 ? '…' : ''}${text}${start + 240 < content.length ? '…' : ''}`
}

/** Appends as one version, conditional on the version read: a concurrent save is re-read, not lost. */
async function appendTo(call: ToolCall, params: { orgId: OrgId; documentId: string }, markdown: string) {
  for (let attempt = 1; ; attempt++) {
    const read = await call.engine.execute('documents.get', { params }, call.principal)
    const current = (read.body as { content: string }).content
    const content = current ? `${current.replace(/\n+$/, '')}\n\n${markdown}` : markdown
    try {
      const written = await call.engine.execute(
        'documents.update',
        { params, body: { content } },
        call.principal,
        {
          ifMatch: read.etag!,
        },
      )
      return summary(written.body)
    } catch (e) {
      if (!(e instanceof ProblemError && e.code === 'precondition_failed') || attempt === 3) throw e
    }
  }
}

/** Tools for markdown documents of teams and projects: write one or append to one, search them. */
export const documentTools: ToolDefinition[] = [
  {
    name: 'write_document',
    title: 'Write or append to a document',
    description:
      'Creates a Markdown document in a `team` or `project`, or with `document` (id) appends `content` as a new version (concurrent edits kept).',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['documents.create', 'documents.get', 'documents.update', 'names.resolve'],
    input: object({
      workspace: Workspace,
      document: Type.Optional(IdSchema('DocumentId', 'A document to append to (from `search_documents`).')),
      team: Type.Optional(TeamRef),
      project: Type.Optional(ProjectRef),
      title: Type.Optional(fieldOf('documents.create', 'body', 'title')),
      content: Type.Optional(fieldOf('documents.create', 'body', 'content', 'Markdown.')),
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      if (args.document) {
        if (typeof args.content !== 'string' || args.title !== undefined || args.team || args.project) {
          throw new ProblemError('validation_failed', 'To append, give `document` and `content` only.')
        }
        return appendTo(call, { orgId: org.id, documentId: args.document }, args.content)
      }
      const holder = await holderOf(call, org.id, args)
      if (!holder || typeof args.title !== 'string') {
        throw new ProblemError('validation_failed', 'To create, give a `title` and the `team` or `project`.')
      }
      const document = await call.run('documents.create', {
        params: { orgId: org.id },
        body: {
          ...holder,
          title: args.title,
          ...(args.content !== undefined ? { content: args.content } : {}),
        },
      })
      return summary(document)
    },
  },
  {
    name: 'search_documents',
    title: 'Search documents',
    description:
      'Full-text search of the documents you can see, best first, optionally in one team or project; answers excerpts.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['documents.list', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        query: fieldOf('documents.list', 'query', 'q', 'Words that begin words of the title or content.'),
        team: Type.Optional(TeamRef),
        project: Type.Optional(ProjectRef),
        limit: Limit,
        cursor: Cursor,
      },
      ['query'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const holder = await holderOf(call, org.id, args)
      const page = await call.run('documents.list', {
        params: { orgId: org.id },
        query: {
          q: args.query,
          limit: args.limit ?? 25,
          ...(holder ?? {}),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
      return {
        documents: page.data.map((d: any) => ({ ...summary(d), excerpt: excerpt(d.content, args.query) })),
        nextCursor: page.nextCursor,
      }
    },
  },
]
