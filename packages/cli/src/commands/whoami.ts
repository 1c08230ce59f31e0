import { defineCommand } from 'citty'
import { apiClient, type Page } from '../api.ts'
import { freshAccessToken } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

interface Claims {
  sub: string
  scope: string
  client_id: string
  exp: number
}

/** The access token's claims, read without verifying: the server verifies on every call. */
function claims(jwt: string): Claims {
  return JSON.parse(Buffer.from(jwt.split('.')[1] ?? '', 'base64url').toString('utf8'))
}

export const whoami = defineCommand({
  meta: { name: 'whoami', description: 'Show who you are signed in as, and your workspaces' },
  args: {
    server: serverArg,
    json: { type: 'boolean', default: false, description: 'Print JSON' },
  },
  run: guarded(async ({ args }) => {
    const { server, accessToken } = await freshAccessToken(args.server)
    const { sub, scope } = claims(accessToken)
    const api = apiClient(server.origin, accessToken)
    const orgs = (await api.get<Page<{ id: string; name: string; slug: string }>>('/v1/orgs?limit=200')).data
    // The person's name, email and role come from their membership of each workspace.
    const workspaces = await Promise.all(
      orgs.map(async (org) => {
        type Member = { userId: string; name: string; email: string; role: string }
        const members = (await api.get<Page<Member>>(`/v1/orgs/${org.id}/members?limit=200`)).data
        const me = members.find((m) => m.userId === sub)
        return { ...org, role: me?.role ?? null, me }
      }),
    )
    const me = workspaces.find((w) => w.me)?.me
    const result = {
      server: server.origin,
      userId: sub,
      name: me?.name ?? null,
      email: me?.email ?? null,
      scope,
      workspaces: workspaces.map(({ id, name, slug, role }) => ({ id, name, slug, role })),
    }
    if (args.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      return
    }
    const who = me ? `${me.name} <${me.email}> (${sub})` : sub
    const lines = [
      `Signed in to ${server.origin} as ${who}`,
      `Scopes: ${scope}`,
      result.workspaces.length === 0
        ? 'No workspaces yet: workgraph seed --demo creates one with demo data.'
        : `Workspaces:\n${result.workspaces.map((w) => `  ${w.name} (${w.slug}, ${w.id})${w.role ? `: ${w.role}` : ''}`).join('\n')}`,
    ]
    process.stdout.write(`${lines.join('\n')}\n`)
  }),
})
