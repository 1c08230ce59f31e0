import { defineCommand } from 'citty'
import { freshAccessToken } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

export const token = defineCommand({
  meta: {
    name: 'token',
    description:
      'Print a fresh access token (15 minutes) for Authorization: Bearer; rotates the stored refresh token',
  },
  args: { server: serverArg },
  run: guarded(async ({ args }) => {
    const { accessToken } = await freshAccessToken(args.server)
    process.stdout.write(`${accessToken}\n`)
  }),
})
