import { Type } from '@sinclair/typebox'
import { ProblemError, type TimeEntry } from '@workgraph/core'
import { fieldOf, object, TaskRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

const entryRow = (e: TimeEntry) => ({
  id: e.id,
  minutes: e.minutes,
  date: e.date,
  note: e.note,
  source: e.source,
})

/** Logging time on a task, by hand or with the person's timer. */
export const timeTools: ToolDefinition[] = [
  {
    name: 'log_time',
    title: 'Log time on a task',
    description:
      'Logs `minutes` on a task on `date` (default today), or `timer: "start"`/`"stop"` your one timer.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['tasks.timeEntries.create', 'me.timer.start', 'me.timer.stop', 'names.resolve'],
    input: object({
      workspace: Workspace,
      task: Type.Optional(TaskRef),
      minutes: Type.Optional(fieldOf('tasks.timeEntries.create', 'body', 'minutes')),
      date: Type.Optional(fieldOf('tasks.timeEntries.create', 'body', 'date')),
      note: Type.Optional(Type.String({ maxLength: 1000, description: 'What the time went on.' })),
      timer: Type.Optional(
        Type.String({
          enum: ['start', 'stop'],
          description: 'Start or stop your timer instead of logging minutes.',
        }),
      ),
    }),
    async run(call, args) {
      const note = args.note === undefined ? {} : { note: args.note }
      if (args.timer === 'stop') {
        const stopped = await call.run<{ entry: TimeEntry | null; discarded: string | null }>(
          'me.timer.stop',
          { body: note },
        )
        return { entry: stopped.entry ? entryRow(stopped.entry) : null, discarded: stopped.discarded }
      }
      if (!args.task) throw new ProblemError('validation_failed', 'Name the `task` to log time on.')
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      if (args.timer === 'start') {
        const started = await call.run<{ timer: { startedAt: string }; stopped: TimeEntry | null }>(
          'me.timer.start',
          {
            body: { task: { orgId: org.id, id: taskId }, ...note },
          },
        )
        return {
          timer: { task: args.task, startedAt: started.timer.startedAt },
          stopped: started.stopped ? entryRow(started.stopped) : null,
        }
      }
      if (args.minutes === undefined)
        throw new ProblemError('validation_failed', 'Give `minutes`, or `timer: "start"` or `"stop"`.')
      const entry = await call.run<TimeEntry>('tasks.timeEntries.create', {
        params: { orgId: org.id, taskId },
        body: { minutes: args.minutes, ...(args.date ? { date: args.date } : {}), ...note },
      })
      return { entry: entryRow(entry) }
    },
  },
]
