import { createHash } from 'node:crypto'
import { type Api, apiClient } from '../api.ts'
import type { SeedContext } from './context.ts'
import { DEMO_TEAMMATES } from './demo-portfolio.ts'
import type { Mailbox } from './mailbox.ts'
import type { createTeammateSession } from './teammates.ts'

/**
 * The run's own address for a teammate (`maya.chen.k3x9qa@demo.workgraph.test`), so every demo
 * has its own people, and a password derived from the run: a resumed run signs them in again
 * without having kept anything. These are demo accounts on the server the demo is on.
 */
export function teammateAccount(run: string, mailbox: string, name: string) {
  const suffix = run.split('-').at(-1)!.toLowerCase()
  const email = `${mailbox}.${suffix}@demo.workgraph.test`
  const password = `demo-${createHash('sha256').update(`${run}:${email}`).digest('base64url').slice(0, 16)}`
  return { name, email, password }
}

/**
 * Each teammate: an invitation from you, their account (signed up through the mailed link, as they
 * would), their acceptance of the invitation (the link mailed to them), and their teams.
 */
export function peopleSteps(
  ctx: SeedContext,
  session: ReturnType<typeof createTeammateSession>,
  mailbox: Mailbox,
  origin: string,
): void {
  const { ids, step, count } = ctx
  const people = DEMO_TEAMMATES.map((teammate) => ({
    teammate,
    account: { ...teammateAccount(ctx.run, teammate.mailbox, teammate.name), key: teammate.key },
  }))
  for (const { teammate, account } of people) {
    ctx.teammates.push(account)
    step(`invite:${teammate.key}`, `Invitation for ${teammate.name}`, async (key) => {
      await ctx.api.post(`${ctx.org()}/invitations`, { email: account.email, role: teammate.role }, key)
    })
  }
  // Both at once: most of the time goes to hashing their passwords on the server.
  step('join', 'Your teammates sign up and join', async () => {
    await Promise.all(
      people.map(async ({ teammate, account }) => {
        const client: Api = apiClient(origin, await session.accessToken(account))
        ctx.clients.set(teammate.key, client)
        const me = await client.get<{ memberships: { orgId: string; memberId: string }[] }>('/v1/me')
        let memberId = me.memberships.find((m) => m.orgId === ids.org)?.memberId
        if (!memberId) {
          const link = new URL(await mailbox.link(account.email, ['/invitations/accept']))
          const joined = await client.post('/v1/invitations/accept', {
            token: link.searchParams.get('token'),
          })
          memberId = joined.id
        }
        ids.members.set(teammate.key, memberId)
        count('teammates')
      }),
    )
  })
  for (const { teammate } of people) {
    for (const team of teammate.teams) {
      step(`team-member:${teammate.key}:${team}`, `${teammate.name} joins ${team}`, async () => {
        await ctx.api.put(
          `${ctx.org()}/teams/${ids.teams.get(team)}/members/${ids.members.get(teammate.key)}`,
        )
      })
    }
  }
}
