import { type TSchema, Type } from '@sinclair/typebox'
import type { AnyOperation, OperationInput } from '../operation.ts'
import { ProblemError } from '../problems.ts'
import type { RawInput } from './execution.ts'
import { compilePart, type PartValidator } from './validation.ts'

export interface CompiledOperation {
  operation: AnyOperation
  /** Validates and converts raw input; throws a 400 problem naming every bad field. */
  parse(raw: RawInput): OperationInput<any, any, any>
}

const EMPTY = Type.Object({}, { additionalProperties: false })

// Compiled once per process: an operation is a constant of the catalogue, and every engine made in
// one process (several workspaces' hosts, a test run's servers) validates it the same way.
const compiledOnce = new WeakMap<AnyOperation, CompiledOperation>()

export function compileOperation(operation: AnyOperation): CompiledOperation {
  let compiled = compiledOnce.get(operation)
  if (!compiled) {
    compiled = compile(operation)
    compiledOnce.set(operation, compiled)
  }
  return compiled
}

/** The validators of one operation's parts. */
interface Validators {
  params: PartValidator<Record<string, unknown>>
  query: PartValidator<Record<string, unknown>>
  body: PartValidator | null
}

function validatorsOf(operation: AnyOperation): Validators {
  return {
    params: compilePart<Record<string, unknown>>(operation.params ?? EMPTY, 'params', { coerce: true }),
    query: compilePart<Record<string, unknown>>(operation.query ?? EMPTY, 'query', { coerce: true }),
    body: operation.body ? compilePart(operation.body as TSchema, 'body', { coerce: false }) : null,
  }
}

function compile(operation: AnyOperation): CompiledOperation {
  // Compiled on the first request that names the operation, not at start: a process serves a few
  // dozen of the catalogue's operations, and compiling all of them was a tenth of a start's CPU.
  let validators: Validators | undefined
  return {
    operation,
    parse(raw) {
      validators ??= validatorsOf(operation)
      const { params, query, body } = validators
      if (operation.streamBody) {
        return {
          params: params.parse(raw.params ?? {}),
          query: query.parse(raw.query ?? {}),
          body: (raw.body as AsyncIterable<Uint8Array> | undefined) ?? emptyStream(),
        }
      }
      if (!body && raw.body !== undefined) {
        throw new ProblemError('validation_failed', 'This operation takes no request body.', {
          errors: [{ pointer: '/body', message: 'Unexpected body' }],
        })
      }
      if (body && raw.body === undefined) {
        throw new ProblemError('validation_failed', 'This operation needs a JSON request body.', {
          errors: [{ pointer: '/body', message: 'Required' }],
        })
      }
      return {
        params: params.parse(raw.params ?? {}),
        query: query.parse(raw.query ?? {}),
        body: body ? body.parse(raw.body) : undefined,
      }
    },
  }
}

/** No bytes: a stream body sent without content is an empty file, not a missing one. */
function emptyStream(): AsyncIterable<Uint8Array> {
  return { [Symbol.asyncIterator]: () => ({ next: async () => ({ done: true, value: undefined }) }) }
}
