import { defineCommand } from 'citty'
import { deleteCredentials, readCredentials } from '../credentials.ts'
import { discover, revoke } from '../oauth/server.ts'
import { log } from '../output.ts'
import { resolveServer } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

export const logout = defineCommand({
  meta: { name: 'logout', description: 'Revoke the stored refresh token at the server and delete it' },
  args: { server: serverArg },
  run: guarded(async ({ args }) => {
    const origin = await resolveServer(args.server)
    const credentials = await readCredentials(origin)
    if (!credentials) {
      log.info(`Not signed in to ${origin}; nothing to do.`)
      return
    }
    // Revoke first: a file deleted while the token still lives would leave a working credential behind.
    await revoke(await discover(origin), { clientId: credentials.clientId, token: credentials.refreshToken })
    await deleteCredentials(origin)
    log.success(`Signed out of ${origin}: the refresh token is revoked and its file deleted.`)
  }),
})
