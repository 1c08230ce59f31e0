import { Type } from '@sinclair/typebox'
import { IdSchema } from '../../kernel/ids.ts'

export { TASK_SORTS } from '../order.ts'

const Instant = (description: string) => Type.Optional(Type.String({ format: 'date-time', description }))

/** The search and range filters of `tasks.list` (docs/task-search.md). */
export const TaskSearchQuery = {
  q: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'Full-text search through the full-text index (SQLite FTS5, Postgres tsvector): every word (up to 8, ' +
        'split on anything but letters and digits) must begin a word of the title or the description, ' +
        'case-insensitively. Results keep `sort`.',
    }),
  ),
  labelId: Type.Optional(IdSchema('LabelId', 'Only tasks carrying this label.')),
  parentId: Type.Optional(
    Type.String({
      pattern: '^(none|task_[0-9A-HJKMNP-TV-Z]{26})$',
      description: 'Subtasks of this TaskId, or `none` for top-level tasks.',
    }),
  ),
  blocked: Type.Optional(
    Type.Boolean({ description: 'true: only tasks an open task blocks; false: only the others.' }),
  ),
  dueAfter: Type.Optional(
    Type.String({ format: 'date', description: 'Due on or after this date (`YYYY-MM-DD`).' }),
  ),
  dueBefore: Type.Optional(
    Type.String({ format: 'date', description: 'Due on or before this date (`YYYY-MM-DD`).' }),
  ),
  createdAfter: Instant('Created at or after this time.'),
  createdBefore: Instant('Created before this time.'),
  updatedBefore: Instant('Changed before this time (with `updatedSince`, a range).'),
}
