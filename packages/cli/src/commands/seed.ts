import { defineCommand } from 'citty'
import { apiClient } from '../api.ts'
import { CliError } from '../errors.ts'
import { log } from '../output.ts'
import { progressBar } from '../progress.ts'
import { LARGE_TASKS } from '../seed/large.ts'
import { fileMailbox, localMailbox } from '../seed/mailbox.ts'
import { existingWorkspace, newRunName, seedDemo } from '../seed/run.ts'
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
    size: {
      type: 'string',
      default: 'small',
      description: '`small`, or `large`: thousands more tasks, to feel pagination and search',
    },
    tasks: { type: 'string', description: `How many tasks --size large adds (default ${LARGE_TASKS})` },
    mailbox: {
      type: 'string',
      description:
        'A file the server appends its mail to (JSON lines), to sign the teammates up; found by itself for a server on this folder’s SQLite file',
    },
    resume: {
      type: 'string',
      description: 'The run name a failed seed printed: replays what it did (Idempotency-Key) and goes on',
    },
  },
  run: guarded(async ({ args }) => {
    if (!args.demo) throw new CliError('Say which data: workgraph seed --demo')
    if (args.size !== 'small' && args.size !== 'large')
      throw new CliError(`--size is small or large, not ${args.size}`)
    const largeTasks = args.size === 'large' ? Number(args.tasks ?? LARGE_TASKS) : 0
    if (!Number.isInteger(largeTasks) || largeTasks < 0 || largeTasks > 100_000)
      throw new CliError(`--tasks is a whole number up to 100000, not ${args.tasks}`)
    const { server, accessToken } = await freshAccessToken(args.server)
    const api = apiClient(server.origin, accessToken)

    if (!args.resume) {
      const existing = await existingWorkspace(api, args.name)
      if (existing) {
        log.info(
          `You already have the workspace “${args.name}” (${existing.id}) on ${server.origin}: nothing was created.\n` +
            `  To seed another, name it: workgraph seed --demo --name "Another demo"\n` +
            '  To finish a run that stopped part-way, use the --resume RUN it printed.',
        )
        process.stdout.write(`${existing.id}\n`)
        return
      }
    }

    const mailboxFile = localMailbox(server.origin, args.mailbox)
    if (!mailboxFile)
      log.warn(
        `No teammates: their sign-up links are mailed by ${server.origin}, and its mail cannot be read here. ` +
          'A server on this folder’s SQLite file keeps it beside the file; elsewhere pass --mailbox FILE. ' +
          'The demo goes on with you alone (no mention in your inbox).',
      )
    const run = args.resume ?? newRunName()
    log.start(`Seeding a demo workspace on ${server.origin} (run ${run})`)
    const started = performance.now()
    let summary: Awaited<ReturnType<typeof seedDemo>>
    try {
      summary = await seedDemo(
        api,
        {
          run,
          workspaceName: args.name,
          ...(mailboxFile ? { teammates: { server, mailbox: fileMailbox(mailboxFile) } } : {}),
          ...(largeTasks ? { largeTasks } : {}),
        },
        progressBar,
      )
    } catch (error) {
      process.stderr.write('\n')
      throw new CliError(
        `${(error as Error).message}\nNothing done so far is lost; within 24 hours, continue with: workgraph seed --demo --resume ${run}`,
      )
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    const made = Object.entries(summary.counts)
      .map(([what, n]) => `${n} ${what}`)
      .join(', ')
    log.success(`Workspace ${summary.slug} (${summary.orgId}) in ${seconds} s: ${made}.`)
    for (const note of summary.notes) log.warn(note)
    if (summary.teammates.length) {
      const lines = summary.teammates.map((t) => `  ${t.name.padEnd(12)} ${t.email}  password: ${t.password}`)
      log.info(`Your teammates; sign in as them at ${server.origin}/sign-in:\n${lines.join('\n')}`)
    }
    log.info(
      'What needs you: workgraph api GET /v1/hub/today · your inbox: workgraph api GET /v1/hub/inbox · ' +
        'your portfolio: workgraph api GET /v1/hub/portfolio',
    )
    process.stdout.write(`${summary.orgId}\n`)
  }),
})
