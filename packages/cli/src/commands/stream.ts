import { defineCommand } from 'citty'
import { CliError } from '../errors.ts'
import { tailStream } from '../stream-tail.ts'
import { guarded, serverArg } from './shared.ts'

export const stream = defineCommand({
  meta: {
    name: 'stream',
    description:
      'Tail the event stream (GET /v1/stream/sse) as the signed-in person: one line per event; reconnects with Last-Event-ID',
  },
  args: {
    kinds: { type: 'string', description: 'Only these kinds, comma-separated (task.created,task.updated)' },
    org: {
      type: 'string',
      description: 'Only this workspace (its id); every workspace you belong to by default',
    },
    from: {
      type: 'string',
      description: 'Without --cursor: now (default) or start (the oldest retained event)',
    },
    cursor: { type: 'string', description: 'Resume after this event id (a frame id printed by --json)' },
    json: { type: 'boolean', description: 'Print each event as its JSON line' },
    server: serverArg,
  },
  run: guarded(async ({ args }) => {
    const from = args.from ?? 'now'
    if (from !== 'now' && from !== 'start') throw new CliError(`--from is now or start, not ${from}`)
    await tailStream({
      server: args.server,
      ...(args.org ? { orgId: args.org } : {}),
      ...(args.kinds ? { kinds: args.kinds } : {}),
      ...(args.cursor ? { cursor: args.cursor } : {}),
      from,
      json: Boolean(args.json),
      write: (line) => process.stdout.write(`${line}\n`),
    })
  }),
})
