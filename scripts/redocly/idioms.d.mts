/** The idiom rules of docs/api-conventions.md over an OpenAPI document (scripts/redocly/idioms.mjs). */
export interface IdiomProblem {
  operationId: string
  /** The keys from the document's root to the offending node. */
  pointer: string[]
  message: string
}
type Json = Record<string, unknown>
export type IdiomRule = (document: Json) => IdiomProblem[]
export function operationsOf(document: Json): { path: string; method: string; operation: Json }[]
export function kebab(word: string): string
export const operationIdNounInPath: IdiomRule
export const oneMethodPerAct: IdiomRule
export const insightsTagFollowsPath: IdiomRule
export const namedRequestBodies: IdiomRule
export const IDIOM_RULES: Record<
  'operation-id-noun-in-path' | 'one-method-per-act' | 'insights-tag-follows-path' | 'named-request-bodies',
  IdiomRule
>
export function idiomProblems(document: Json): Record<keyof typeof IDIOM_RULES, IdiomProblem[]>
declare function idiomsPlugin(): { id: string; rules: { oas3: Record<string, unknown> } }
export default idiomsPlugin
