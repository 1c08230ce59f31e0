import { type Engine, PROBLEM_ADVICE, PROBLEMS, type ProblemCode } from '@workgraph/core'
import type { H3 } from 'h3'
import { escapeHtml, page } from './html.ts'

/** Where problem types are documented on this server: a problem's `type` is this plus its slug. */
export const PROBLEM_TYPE_PATH = '/problems/'

export const problemSlug = (code: string) => code.replaceAll('_', '-')

// Backticked words in the advice become code, after escaping.
const inline = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')

/**
 * `/problems` and `/problems/{slug}`: what each problem code means, what to do about it, and which
 * operations can answer with it (from the catalogue), so the `type` URL of every problem document
 * opens a page that helps.
 */
export function registerProblemPages(app: H3, engine: Engine): void {
  const codes = (Object.keys(PROBLEMS) as ProblemCode[]).sort()
  const bySlug = new Map(codes.map((code) => [problemSlug(code), code]))
  const answeredBy = (code: ProblemCode) => engine.operations.filter((op) => op.errors.includes(code))

  app.get('/problems', () =>
    page(
      'Problem types',
      `<h1>Problem types</h1><p>Every error of the workgraph API is an RFC 9457 problem document; clients branch on its <code>code</code>.</p>
<table><tr><th>code</th><th>status</th><th>meaning</th></tr>${codes
        .map(
          (code) =>
            `<tr><td><a href="${PROBLEM_TYPE_PATH}${problemSlug(code)}"><code>${code}</code></a></td><td>${PROBLEMS[code].status}</td><td>${escapeHtml(PROBLEMS[code].title)}</td></tr>`,
        )
        .join('')}</table>`,
      { headers: { 'cache-control': 'public, max-age=300' } },
    ),
  )

  app.get('/problems/:slug', (event) => {
    const code = bySlug.get(event.context.params?.slug ?? '')
    if (!code)
      return page(
        'Unknown problem type',
        '<h1>Unknown problem type</h1><p><a href="/problems">All problem types</a></p>',
        {
          status: 404,
        },
      )
    const { status, title } = PROBLEMS[code]
    const advice = PROBLEM_ADVICE[code]
    const ops = answeredBy(code)
    return page(
      code,
      `<h1><code>${code}</code></h1><p><strong>${status}</strong> · ${escapeHtml(title)}</p>
${advice ? `<h2>What to do</h2><p>${inline(advice)}</p>` : ''}
<h2>Answered by</h2>${
        ops.length > 0
          ? `<p>${ops.length} operation(s) declare it:</p><ul>${ops
              .map((op) => `<li><code>${op.id}</code> <code>${op.method} ${escapeHtml(op.path)}</code></li>`)
              .join('')}</ul>`
          : '<p>Any operation: it comes from the request pipeline, not from one operation.</p>'
      }
<p><a href="/problems">All problem types</a> · <a href="/v1/docs">API reference</a></p>`,
      { headers: { 'cache-control': 'public, max-age=300' } },
    )
  })
}
