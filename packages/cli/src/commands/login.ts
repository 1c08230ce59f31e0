import { defineCommand } from 'citty'
import * as oauth from 'oauth4webapi'
import { readCredentials, writeCredentials } from '../credentials.ts'
import { CliError } from '../errors.ts'
import { openBrowser, openLoopback } from '../oauth/loopback.ts'
import { discover, exchangeCode, registerClient } from '../oauth/server.ts'
import { log } from '../output.ts'
import { now, resolveServer } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

/** What the CLI asks for: the person's work and agents, and a refresh token to stay signed in. */
export const SCOPE = 'work:read work:write agents:run offline_access'

export const login = defineCommand({
  meta: {
    name: 'login',
    description: 'Sign in through your browser (OAuth with PKCE) and keep a refresh token',
  },
  args: {
    server: serverArg,
    browser: {
      type: 'boolean',
      default: true,
      description: 'Open the browser (--no-browser only prints the URL)',
    },
  },
  run: guarded(async ({ args }) => {
    const origin = await resolveServer(args.server)
    const server = await discover(origin)
    const loopback = await openLoopback()
    try {
      // One registration per server, kept with the credentials; any loopback port matches it later (RFC 8252).
      const previous = await readCredentials(origin)
      const clientId =
        previous && previous.issuer === server.as.issuer
          ? previous.clientId
          : await registerClient(server, loopback.redirectUri)
      const verifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      const url = new URL(server.as.authorization_endpoint!)
      url.search = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: loopback.redirectUri,
        scope: SCOPE,
        state,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        resource: server.resource,
      }).toString()

      const opened = args.browser && openBrowser(url.href)
      log.info(
        opened ? 'Opened your browser to sign in. If it did not open, visit:' : 'Open this URL to sign in:',
      )
      log.log(`\n  ${url.href}\n`)
      log.start(`Waiting for the browser at ${loopback.redirectUri}`)

      const landed = await loopback.callback
      const client = { client_id: clientId }
      let callback: URLSearchParams
      try {
        // Checks state and RFC 9207 iss, and turns an error redirect into an exception.
        callback = oauth.validateAuthResponse(server.as, client, landed, state)
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError) {
          throw new CliError(
            error.error === 'access_denied'
              ? 'You chose Deny; nothing was stored.'
              : `The server refused: ${error.error}${error.error_description ? ` (${error.error_description})` : ''}`,
          )
        }
        throw error
      }
      const tokens = await exchangeCode(server, {
        clientId,
        callback,
        redirectUri: loopback.redirectUri,
        verifier,
        scope: SCOPE,
      })
      const path = await writeCredentials({
        server: origin,
        issuer: server.as.issuer,
        resource: server.resource,
        clientId,
        refreshToken: tokens.refreshToken,
        scope: tokens.scope,
        savedAt: now(),
      })
      log.success(`Signed in to ${origin} (${tokens.scope}). Refresh token saved to ${path} (mode 0600).`)
      log.info(`Try: curl -H "Authorization: Bearer $(workgraph token)" ${origin}/v1/orgs`)
    } finally {
      loopback.close()
    }
  }),
})
