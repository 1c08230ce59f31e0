import {
  type ConsentId,
  type MemberId,
  newId,
  type OrgId,
  type UserId,
  type WebSessionId,
} from '@workgraph/core'
import { EXAMPLE_RANKS, ranked } from '../support/example-world.ts'
import type { startTestServer } from '../support/http.ts'
import { sampleWorld } from '../support/sample-world.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/** A calendar day of the owner's plan holding one item, away from the request examples' days. */
const PLAN_DAY = '2031-03-03'

/**
 * The Postman variables of one world: the sample world's ids (by name, and by prefix and rank for
 * the request examples), plus the caller's own records the sample world has no use for (a period
 * away, a favorite, a plan item and its day, a web session, a connected app), so that no path is
 * sent with a literal `{{…}}`, and the owner's token.
 */
export async function fuzzWorld(server: Server): Promise<Record<string, string>> {
  const { ids, ws } = await sampleWorld(server)
  const token = await server.engine.tokens.issueAccessToken({
    userId: ws.owner.user.id,
    scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link', 'offline_access'],
  })
  const created = async (answer: Promise<{ status: number; body: any }>, what: string) => {
    const { status, body } = await answer
    if (status !== 201) throw new Error(`the fuzz world's ${what}: ${status} ${JSON.stringify(body)}`)
    return body.id as string
  }
  const awayId = await created(
    ws.api.post('/v1/me/away', { startDate: '2031-03-10', endDate: '2031-03-12' }),
    'period away',
  )
  // Two favorites and two plan items: the move examples put the second (the one in the path)
  // before the first (rank 0 of the example ids).
  const favorites = [
    await created(
      ws.api.post('/v1/me/favorites', { record: { orgId: ws.orgId, type: 'project', id: ids.projectId } }),
      'favorite',
    ),
    await created(
      ws.api.post('/v1/me/favorites', { record: { orgId: ws.orgId, type: 'task', id: ids.taskId } }),
      'favorite',
    ),
  ]
  const planItems = [
    await created(
      ws.api.post(`/v1/me/daily-plan/${PLAN_DAY}/items`, { task: { orgId: ws.orgId, id: ids.taskId } }),
      'plan item',
    ),
    await created(
      ws.api.post(`/v1/me/daily-plan/${PLAN_DAY}/items`, { text: 'Sample plan item' }),
      'plan item',
    ),
  ]
  const userId = ws.owner.user.id as UserId
  const sessionId = newId('WebSessionId') as WebSessionId
  const consentId = newId('ConsentId') as ConsentId
  const now = new Date()
  await server.engine.storage.transaction(async (s) => {
    await s.oauth.insertSession({
      id: sessionId,
      userId,
      tokenHash: `fuzz-${sessionId}`,
      userAgent: 'Portman',
      createdAt: now.toISOString(),
      expiresAt: new Date(now.getTime() + 86_400_000).toISOString(),
    })
    await s.oauth.upsertGrant({
      id: consentId,
      userId,
      clientId: 'fuzz-app',
      clientName: 'Fuzz app',
      scopes: ['work:read'],
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    })
  })
  // A member other than the owner, for what the owner cannot do (leave the org), and the sample
  // task's key, for the examples that name a task by its key.
  const member = await server.storage.read((s) => s.members.get(ws.orgId as OrgId, ids.memberId as MemberId))
  const memberToken = await server.engine.tokens.issueAccessToken({
    userId: member!.userId,
    scopes: ['work:read', 'work:write', 'agents:run', 'connectors:link'],
  })
  const taskKey = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${ids.taskId}`)).body.key as string
  const values: Record<string, string> = {
    ...ids,
    memberToken,
    taskKey,
    awayId,
    favoriteId: favorites[1]!,
    planItemId: planItems[1]!,
    date: PLAN_DAY,
    sessionId,
    consentId,
    baseUrl: server.url,
    bearerToken: token,
  }
  const ranks: Record<string, string[]> = {
    awy: [awayId],
    fav: favorites,
    pli: planItems,
    wsn: [sessionId],
    cns: [consentId],
  }
  for (const prefix of Object.keys(EXAMPLE_RANKS)) ranks[prefix] = ranked(prefix, ids)
  for (const [prefix, records] of Object.entries(ranks))
    records.forEach((id, rank) => {
      values[`${prefix}_${rank}`] = id
    })
  return values
}
