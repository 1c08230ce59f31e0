import { Type } from '@sinclair/typebox'
import { object } from '../../schema.ts'
import type { ToolDefinition } from '../../types.ts'

const Day = (description: string) =>
  Type.String({ format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description })

/** Declaring time away over MCP (study §2.8: `set_away`). */
export const awayTools: ToolDefinition[] = [
  {
    name: 'set_away',
    title: 'Set me away',
    description:
      'Declares you away `from` to `to` (days included); colleagues see it, and plans carried onto those days move nothing.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['me.away.create'],
    input: object({
      from: Day('The first day away, `YYYY-MM-DD`.'),
      to: Day('The last day away, `YYYY-MM-DD`.'),
      note: Type.Optional(Type.String({ maxLength: 500, description: 'For you only.' })),
    }),
    async run(call, args) {
      const period = await call.run<{ id: string; startDate: string; endDate: string; note: string | null }>(
        'me.away.create',
        { body: { startDate: args.from, endDate: args.to, ...(args.note ? { note: args.note } : {}) } },
      )
      return { id: period.id, from: period.startDate, to: period.endDate, note: period.note }
    },
  },
]
