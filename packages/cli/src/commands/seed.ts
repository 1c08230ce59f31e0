import { defineCommand } from 'citty'
import { apiClient } from '../api.ts'
import { CliError } from '../errors.ts'
import { log } from '../output.ts'
import { progressBar } from '../progress.ts'
import { newRunName, seedDemo } from '../seed/run.ts'
import { freshAccessToken } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

export const seed = defineCommand({
  meta: {
    name: 'seed',
    description: 'Create a workspace full of realistic demo data through the API, as you',
  },
  args: {
    server: serverArg,
    demo: { type: 'boolean', default: false, description: 'The demo workspace (the only data set so far)' },
    name: { type: 'string', default: 'Acme Robotics (demo)', description: 'The new workspace’s name' },
    resume: {
      type: 'string',
      description: 'The run name a failed seed printed: replays what it did (Idempotency-Key) and goes on',
    },
  },
  run: guarded(async ({ args }) => {
    if (!args.demo) throw new CliError('Say which data: workgraph seed --demo')
    const { server, accessToken } = await freshAccessToken(args.server)
    const api = apiClient(server.origin, accessToken)
    const run = args.resume ?? newRunName()
    log.start(`Seeding a demo workspace on ${server.origin} (run ${run})`)
    let summary: Awaited<ReturnType<typeof seedDemo>>
    try {
      summary = await seedDemo(api, { run, workspaceName: args.name }, progressBar)
    } catch (error) {
      process.stderr.write('\n')
      throw new CliError(
        `${(error as Error).message}\nNothing done so far is lost; within 24 hours, continue with: workgraph seed --demo --resume ${run}`,
      )
    }
    const made = Object.entries(summary.counts)
      .map(([what, n]) => `${n} ${what}`)
      .join(', ')
    log.success(`Workspace ${summary.slug} (${summary.orgId}): ${made}.`)
    process.stdout.write(`${summary.orgId}\n`)
  }),
})
