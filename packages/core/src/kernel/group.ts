import type { TSchema } from '@sinclair/typebox'
import type { FilledHooks } from './hooks.ts'
import type { EventStreamEndpoint } from './openapi/paths.ts'
import type { AnyOperation } from './operation.ts'
import type { TargetResolver } from './permissions.ts'
import type { ProblemTable } from './problems/codes.ts'

/** A tag of the reference: a heading of the docs under which operations are listed. */
export interface TagDoc {
  name: string
  description: string
  /** Agents may run this tag's operations through a work session (work, not administration). */
  agentWork?: boolean
}

/** The kinds of event some operations emit, as one row of the table in docs/events.md. */
export interface EventKinds {
  kinds: readonly string[]
  /** Markdown: which operations emit them, and anything a reader of the stream should know. */
  emittedBy: string
}

/**
 * What a resource group gives the kernel. Each group folder exports one; the catalogue is the
 * ordered list of them, and everything the kernel needs (operations, tags, problem codes, event
 * kinds, capability targets) is derived from that list.
 */
export interface ResourceGroup {
  /** The folder's name, for messages. */
  name: string
  /** The tags its operations use, in documentation order. */
  tags: readonly TagDoc[]
  operations: readonly AnyOperation[]
  /** The problem codes only this group raises, from its `problems.ts` (`defineProblems`). */
  problems?: ProblemTable
  events?: readonly EventKinds[]
  /**
   * The `data` of the group's event kinds whose payload is typed, as the emitting code writes it:
   * the reference makes `StreamEvent` a union discriminated by `kind` from these. A kind without one
   * is any object.
   */
  eventData?: Readonly<Record<string, TSchema>>
  /** Resolvers for the capability target kinds the group adds (`TargetKinds`). */
  targets?: Readonly<Record<string, TargetResolver>>
  /** Server-sent event endpoints, which are not operations but appear in the reference. */
  eventStreams?: readonly EventStreamEndpoint[]
  /** The hooks of lower groups this group fills (`kernel/hooks.ts`): what they need of it. */
  fills?: FilledHooks
}

/** The catalogue assembled from groups, checked for duplicate ids, routes, tags, kinds and targets. */
export interface Catalogue {
  groups: readonly ResourceGroup[]
  operations: readonly AnyOperation[]
  /** Tag descriptions in documentation order. */
  tags: Readonly<Record<string, string>>
  /** Tags whose operations agents may run. */
  agentTags: ReadonlySet<string>
  events: readonly EventKinds[]
  /** Every group's `eventData`. */
  eventData: Readonly<Record<string, TSchema>>
  targets: Readonly<Record<string, TargetResolver>>
  eventStreams: readonly EventStreamEndpoint[]
  /** Every group's `fills`: the hooks an engine over this catalogue answers. */
  hooks: FilledHooks
}

export function assembleCatalogue(groups: readonly ResourceGroup[]): Catalogue {
  const tags: Record<string, string> = {}
  const agentTags = new Set<string>()
  const targets: Record<string, TargetResolver> = {}
  const hooks: Record<string, unknown> = {}
  const kinds = new Set<string>()
  const seen = new Set<string>()
  const fail = (group: ResourceGroup, message: string) => {
    throw new Error(`Resource group ${group.name}: ${message}`)
  }
  for (const group of groups) {
    for (const tag of group.tags) {
      if (tag.name in tags) fail(group, `the tag ${tag.name} is declared twice`)
      tags[tag.name] = tag.description
      if (tag.agentWork) agentTags.add(tag.name)
    }
    for (const [type, resolver] of Object.entries(group.targets ?? {})) {
      if (type in targets) fail(group, `the capability target ${type} is resolved twice`)
      targets[type] = resolver
    }
    for (const row of group.events ?? []) {
      for (const kind of row.kinds) {
        if (kinds.has(kind)) fail(group, `the event kind ${kind} is declared twice`)
        kinds.add(kind)
      }
    }
    for (const [name, hook] of Object.entries(group.fills ?? {})) {
      if (name in hooks) fail(group, `the hook ${name} is filled twice`)
      hooks[name] = hook
    }
    const own = new Set(group.events?.flatMap((row) => row.kinds))
    for (const kind of Object.keys(group.eventData ?? {}))
      if (!own.has(kind)) fail(group, `types the data of ${kind}, which is not one of its event kinds`)
  }
  const operations = groups.flatMap((g) => g.operations)
  for (const group of groups) {
    for (const op of group.operations) {
      const route = `${op.method} ${op.path}`
      if (seen.has(op.id) || seen.has(route)) fail(group, `duplicate operation ${op.id} (${route})`)
      if (!(op.tag in tags)) fail(group, `operation ${op.id} has the undeclared tag ${op.tag}`)
      seen.add(op.id)
      seen.add(route)
    }
  }
  return {
    groups,
    operations,
    tags,
    agentTags,
    events: groups.flatMap((g) => g.events ?? []),
    eventData: Object.assign({}, ...groups.map((g) => g.eventData ?? {})),
    targets,
    eventStreams: groups.flatMap((g) => g.eventStreams ?? []),
    hooks: hooks as FilledHooks,
  }
}
