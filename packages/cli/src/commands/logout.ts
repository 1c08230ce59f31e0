import { defineCommand } from 'citty'
import { apiClient, type Page } from '../api.ts'
import { deleteCredentials, readCredentials } from '../credentials.ts'
import { CliError } from '../errors.ts'
import { discover, refresh, revoke } from '../oauth/server.ts'
import { log } from '../output.ts'
import { resolveServer } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

export const logout = defineCommand({
  meta: {
    name: 'logout',
    description:
      'Sign the CLI out: disconnect it (its access tokens stop at once), revoke the refresh token, delete the file',
  },
  args: { server: serverArg },
  run: guarded(async ({ args }) => {
    const origin = await resolveServer(args.server)
    const credentials = await readCredentials(origin)
    if (!credentials) {
      log.info(`Not signed in to ${origin}; nothing to do.`)
      return
    }
    const server = await discover(origin)
    let refreshToken = credentials.refreshToken
    try {
      // Revoking a refresh token ends only the refresh tokens; access tokens already printed would
      // live out their 15 minutes. Disconnecting the CLI's own consent (always allowed to an app)
      // ends them at once, as Connected apps does.
      const tokens = await refresh(server, credentials)
      refreshToken = tokens.refreshToken
      const api = apiClient(origin, tokens.accessToken)
      const connections = await api.get<Page<{ id: string; clientId: string }>>('/v1/me/consents')
      const mine = connections.data.find((c) => c.clientId === credentials.clientId)
      if (mine) await api.delete(`/v1/me/consents/${mine.id}`)
    } catch (error) {
      // A sign-in that already ended (expired, revoked elsewhere) has nothing left to disconnect.
      if (!(error instanceof CliError)) throw error
    }
    // Revoke before deleting: a file deleted while its token still lives would leave a working credential behind.
    await revoke(server, { clientId: credentials.clientId, token: refreshToken })
    await deleteCredentials(origin)
    log.success(
      `Signed out of ${origin}: the CLI is disconnected, its refresh token revoked and its file deleted.`,
    )
  }),
})
