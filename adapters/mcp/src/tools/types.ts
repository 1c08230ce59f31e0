import type { TObject, TSchema } from '@sinclair/typebox'
import type { Engine, NameKind, OrgId, Principal, RawInput } from '@workgraph/core'

/** What a tool's handler works with: the engine pipeline as the caller, plus name look-ups. */
export interface ToolCall {
  engine: Engine
  principal: Principal
  /** Runs one catalogue operation through `engine.execute`; a failure throws its `ProblemError`. */
  run<T = any>(operationId: string, input: RawInput): Promise<T>
  /** The workspace by id, slug or name; when omitted, the caller's only workspace. */
  workspace(ref: string | undefined): Promise<{ id: OrgId; name: string; slug: string }>
  /** A name of the workspace resolved to an id, as the caller sees it (`names.resolve`). */
  resolve(
    orgId: OrgId,
    kind: NameKind,
    name: string,
    team?: string,
    options?: { archived: boolean },
  ): Promise<string>
}

/** One MCP tool: a curated, intent-level action over one or more catalogue operations. */
export interface ToolDefinition {
  /** 1–64 characters of `[A-Za-z0-9_.-]`. */
  name: string
  title: string
  description: string
  readOnly: boolean
  destructive: boolean
  idempotent: boolean
  /** The catalogue operations it calls: its scopes and permissions are theirs. */
  operations: readonly string[]
  /** Built from the catalogue's own TypeBox schemas. */
  input: TObject
  /** What a successful call answers in `structuredContent`, when its shape is fixed enough to promise. */
  output?: TObject
  run(call: ToolCall, args: any): Promise<unknown>
}

export type { TSchema }
