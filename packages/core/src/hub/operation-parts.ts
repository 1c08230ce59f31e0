import { type TProperties, Type } from '@sinclair/typebox'
import { commaListPattern } from '../kernel/schema-types.ts'
import { HUB_RECORD_TYPES } from './storage.ts'

// What the hub's operation declarations share.
export const TAG = 'Hub'
export const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
export const RELATED =
  'the projects, programs and initiatives you lead (a program’s or initiative’s owner), are a member of, or follow'
export const typesQuery = Type.Optional(
  Type.String({
    maxLength: 60,
    pattern: commaListPattern(HUB_RECORD_TYPES),
    description: `Comma-separated subset of ${HUB_RECORD_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
  }),
)
export const ACROSS =
  'One permission-scoped query runs in each workspace you are an active member of, with your role and grants there, and the results are merged; no query spans workspaces. A workspace that fails or takes too long is listed in `partial` instead of failing the answer. The cursor is signed and holds one position per workspace: a workspace you join later starts at its beginning, one you leave drops out.'
