import {
  ErrorCode,
  McpError,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js'
import { isProblem, type OrgId } from '@workgraph/core'
import type { ToolCall } from './tools/types.ts'
import { INBOX_URI, parseUri, projectUri, type ResourceRef, taskUri, teamUri, workspaceUri } from './uris.ts'

const TASKS_PER_PAGE = 50
/** Unread notifications the inbox resource shows (newest first); `more` says whether others are unread. */
const INBOX_SIZE = 50

/**
 * `resources/list`: first the caller's inbox (`workgraph://me/inbox`); then for each workspace, the workspace, its teams and its newest projects (up to 50;
 * milestones are read by URI), then its tasks (newest change first), 50 per page. The cursor is the workspace index and that workspace's task cursor.
 */
export async function listResources(
  call: ToolCall,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const position = cursor ? decodeCursor(cursor) : { i: 0, c: null }
  const orgs = (await call.run('orgs.list', { query: { limit: 200 } })).data as { id: OrgId; name: string }[]
  const org = orgs[position.i]
  if (!org) return { resources: [] }
  const resources: Resource[] = []
  if (position.i === 0 && !position.c)
    resources.push({
      uri: INBOX_URI,
      name: 'My inbox',
      description:
        'Your unread notifications in all your workspaces, newest first; subscribe to hear of changes.',
      mimeType: 'application/json',
    })
  if (!position.c) {
    resources.push({ uri: workspaceUri(org.id), name: org.name, mimeType: 'application/json' })
    const teams = await call.run('teams.list', { params: { orgId: org.id }, query: { limit: 200 } })
    for (const t of teams.data)
      resources.push({
        uri: teamUri(org.id, t.key),
        name: `${t.key} ${t.name}`,
        mimeType: 'application/json',
      })
    const projects = await call.run('projects.list', { params: { orgId: org.id }, query: { limit: 50 } })
    for (const p of projects.data)
      resources.push({ uri: projectUri(org.id, p.id), name: p.name, mimeType: 'application/json' })
  }
  const tasks = await call.run('tasks.list', {
    params: { orgId: org.id },
    query: { limit: TASKS_PER_PAGE, sort: '-updatedAt', ...(position.c ? { cursor: position.c } : {}) },
  })
  for (const t of tasks.data)
    resources.push({ uri: taskUri(org.id, t.key), name: `${t.key} ${t.title}`, mimeType: 'application/json' })
  const next = tasks.nextCursor
    ? { i: position.i, c: tasks.nextCursor }
    : position.i + 1 < orgs.length
      ? { i: position.i + 1, c: null }
      : null
  return { resources, ...(next ? { nextCursor: encodeCursor(next) } : {}) }
}

/** The record a URI names, read through its catalogue operation; its id is what events name. */
export async function readRecord(call: ToolCall, ref: ResourceRef): Promise<{ id: string; body: unknown }> {
  const orgId = ref.orgId
  switch (ref.kind) {
    case 'workspace':
      return { id: orgId, body: await call.run('orgs.get', { params: { orgId } }) }
    case 'team': {
      const teamId = await call.resolve(orgId, 'team', ref.key)
      return { id: teamId, body: await call.run('teams.get', { params: { orgId, teamId } }) }
    }
    case 'task': {
      const taskId = await call.resolve(orgId, 'task', ref.key)
      return { id: taskId, body: await call.run('tasks.get', { params: { orgId, taskId } }) }
    }
    case 'cycle': {
      const cycleId = await call.resolve(orgId, 'cycle', ref.number, ref.key)
      return { id: cycleId, body: await call.run('cycles.get', { params: { orgId, cycleId } }) }
    }
    case 'project':
      return { id: ref.id, body: await call.run('projects.get', { params: { orgId, projectId: ref.id } }) }
    case 'milestone':
      return {
        id: ref.id,
        body: await call.run('milestones.get', { params: { orgId, milestoneId: ref.id } }),
      }
    case 'session':
      return {
        id: ref.id,
        body: await call.run('agentSessions.get', { params: { orgId, agentSessionId: ref.id } }),
      }
  }
}

/**
 * The inbox resource: the caller's unread notifications of every workspace (`hub.inbox`, one
 * permission-scoped read per membership), the unread total (`hub.inbox.counts`), and the workspaces
 * that failed.
 */
export async function readInbox(call: ToolCall): Promise<unknown> {
  const page = await call.run('hub.inbox', { query: { unread: true, limit: INBOX_SIZE } })
  const counts = await call.run('hub.inbox.counts', { query: {} })
  const partial = new Map<string, unknown>()
  for (const p of [...page.partial, ...counts.partial]) partial.set(p.orgId, p)
  return {
    unread: counts.unread,
    notifications: page.data,
    more: page.nextCursor !== null,
    partial: [...partial.values()],
  }
}

export async function readResource(call: ToolCall, uri: string): Promise<ReadResourceResult> {
  if (uri === INBOX_URI) {
    const body = await readInbox(call)
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] }
  }
  const ref = parseRef(uri)
  try {
    const { body } = await readRecord(call, ref)
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] }
  } catch (error) {
    throw asMcpError(error, uri)
  }
}

export function parseRef(uri: string): ResourceRef {
  const ref = parseUri(uri)
  if (!ref) throw new McpError(ErrorCode.InvalidParams, `Not a workgraph resource URI: ${uri}`)
  return ref
}

/** Resource failures as JSON-RPC errors; the spec's "resource not found" is -32002. */
export function asMcpError(error: unknown, uri: string): unknown {
  if (!isProblem(error)) return error
  if (['not_found', 'unknown_name', 'ambiguous_name'].includes(error.code))
    return new McpError(-32002, `Resource not found: ${uri}`, { uri })
  return new McpError(ErrorCode.InvalidRequest, error.message, { code: error.code })
}

function encodeCursor(position: { i: number; c: string | null }): string {
  return Buffer.from(JSON.stringify(position)).toString('base64url')
}

function decodeCursor(cursor: string): { i: number; c: string | null } {
  try {
    const parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString())
    if (Number.isInteger(parsed.i) && parsed.i >= 0 && (parsed.c === null || typeof parsed.c === 'string'))
      return parsed
  } catch {}
  throw new McpError(ErrorCode.InvalidParams, 'The cursor is not one this server gave out.')
}
