/** What one call of the pipeline takes and answers, apart from the operation and the principal. */

export interface RawInput {
  params?: Record<string, unknown>
  query?: Record<string, unknown>
  body?: unknown
}

export interface ExecuteOptions {
  ifMatch?: string
  ifNoneMatch?: string
  idempotencyKey?: string
}

export interface ExecuteResult {
  status: number
  body: unknown
  etag?: string
  /** True when an `Idempotency-Key` replayed a stored response. */
  replayed?: boolean
}
