/**
 * `an initiative`, `a task`: a noun with its indefinite article, for generated summaries and
 * descriptions. Decided by the first letter; pass `article` where the sound differs (`a user`).
 */
export function withArticle(noun: string, article?: 'a' | 'an'): string {
  return `${article ?? (/^[aeiou]/i.test(noun) ? 'an' : 'a')} ${noun}`
}
