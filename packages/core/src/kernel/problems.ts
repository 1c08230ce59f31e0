import { PROBLEMS, type ProblemCode } from './problems/codes.ts'
import type { ProblemExtensionsOf } from './problems/extensions.ts'

export { PROBLEMS, type ProblemCode }

export interface FieldError {
  /** JSON Pointer (RFC 6901) into the request: `/body/title`, `/query/limit`, `/params/orgId`. */
  pointer: string
  message: string
}

export interface ProblemDocument {
  type: string
  title: string
  status: number
  detail: string
  code: ProblemCode
  errors?: FieldError[]
  [extension: string]: unknown
}

/** The one error class core throws for anything a client should see. */
export class ProblemError<C extends ProblemCode = ProblemCode> extends Error {
  readonly code: C
  readonly status: number
  readonly errors: FieldError[] | undefined
  readonly extensions: Record<string, unknown>

  constructor(
    code: C,
    detail: string,
    options: { errors?: FieldError[]; extensions?: ProblemExtensionsOf<NoInfer<C>> } = {},
  ) {
    super(detail)
    this.name = 'ProblemError'
    this.code = code
    this.status = PROBLEMS[code].status
    this.errors = options.errors
    this.extensions = (options.extensions ?? {}) as Record<string, unknown>
  }

  /** The RFC 9457 document; `typeBase` is where the problem types are documented. */
  toDocument(typeBase = 'https://workgraph.dev/problems/'): ProblemDocument {
    return {
      type: `${typeBase}${this.code.replaceAll('_', '-')}`,
      title: PROBLEMS[this.code].title,
      status: this.status,
      detail: this.message,
      code: this.code,
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extensions,
    }
  }
}

export function isProblem(error: unknown): error is ProblemError {
  return error instanceof ProblemError
}

/** Shorthand for the 404 that a missing record, another tenant's record and a hidden one share. */
export function notFound(what: string): ProblemError {
  return new ProblemError('not_found', `${what} was not found.`)
}
