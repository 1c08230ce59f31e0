/**
 * OAuth sign-in through the cluster's balancer, as a person and a public client do it: sign-up with
 * the mailed link (the instances print mail to their log; whichever sent it), then the
 * authorization-code flow with PKCE (test/oauth/support.ts), each request to whichever instance the
 * balancer picks.
 */
import { authorizeAndAllow, authorizeUrl, pkce, register, tokenRequest } from '../../oauth/support.ts'
import { until } from './instances.ts'

const REDIRECT = 'http://127.0.0.1:8976/callback'

/** Signs a new person up through `base`, reading the confirmation link from the instances' logs. */
export async function signUpThrough(base: string, logs: () => string): Promise<{ cookie: string }> {
  const email = `cluster.${Date.now()}@example.com`
  const started = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'correct horse battery staple', name: 'Cluster Person' }),
  })
  if (started.status !== 202) throw new Error(`sign-up answered ${started.status}: ${await started.text()}`)
  // The console mailer prints `[mail] to <address>: <subject>`, the text, then the link.
  const mailed = new RegExp(`\\[mail\\] to ${email.replace(/\./g, '\\.')}:[^]*?(\\S+/sign-up/confirm\\?\\S+)`)
  await until(async () => mailed.test(logs()), `the mail to ${email}`)
  const link = mailed.exec(logs())![1]!
  const res = await fetch(`${base}/api/auth/sign-up/confirm`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token: new URL(link).searchParams.get('token') }),
  })
  if (res.status !== 200) throw new Error(`sign-up confirmation answered ${res.status}: ${await res.text()}`)
  return { cookie: res.headers.get('set-cookie')!.split(';')[0]! }
}

/** Registers a public client and runs the authorization-code flow with PKCE for the signed-in `cookie`. */
export async function authorizationCodeFlow(base: string, cookie: string) {
  const client = (await register(base)).body
  const { verifier, challenge } = pkce()
  const location = await authorizeAndAllow(
    base,
    authorizeUrl(base, {
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'work:read work:write offline_access',
      state: 'cluster',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${base}/v1`,
    }),
    cookie,
  )
  const code = location.searchParams.get('code')
  if (!code) throw new Error(`no code in ${location}`)
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    client_id: client.client_id,
    redirect_uri: REDIRECT,
    resource: `${base}/v1`,
  })
  return { client, state: location.searchParams.get('state'), tokens }
}
