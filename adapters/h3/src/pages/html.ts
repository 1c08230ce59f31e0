/** Small server-rendered pages: no scripts, nothing loaded from elsewhere, never framed. */

const PAGE_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  "img-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ')

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;overflow-wrap:anywhere;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1b1b1f}
h1{font-size:1.5rem}label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password],input[type=text]{width:100%;padding:.5rem;font:inherit;box-sizing:border-box}
button{font:inherit;padding:.5rem 1rem;margin:1rem .5rem 0 0;cursor:pointer}.error{color:#a4000f;border:1px solid #a4000f;padding:.5rem}
.warn{background:#fff4ce;padding:.5rem}ul.scopes li{margin:.25rem 0}code{word-break:break-all}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.primary{background:#1f5fd6;color:#fff;border:1px solid #1f5fd6;border-radius:4px;font-weight:600}.secondary{background:#fff;color:#1b1b1f;border:1px solid #8a8a93;border-radius:4px}
.choices{display:flex;flex-wrap:wrap;gap:.5rem}.choices button{margin:1rem 0 0;flex:1 1 8rem}.who{font-size:.9rem;color:#46464f}.who button.link{background:none;border:0;padding:0;margin:0;color:#1f5fd6;text-decoration:underline;font-size:inherit}
@media (max-width:480px){body{margin:1rem auto}table,thead,tbody,tr,td,th{display:block}tr{border-bottom:1px solid #ddd;padding:.25rem 0}td,th{border:0;padding:.15rem 0}thead{display:none}td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}`

export function page(
  title: string,
  body: string,
  options: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} · workgraph</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`
  return new Response(html, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': PAGE_CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      // same-origin, not no-referrer: with no-referrer browsers send `Origin: null` on our own form posts.
      'referrer-policy': 'same-origin',
      'cache-control': 'no-store',
      ...options.headers,
    },
  })
}

export function errorPage(title: string, message: string, status = 400): Response {
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1><p class="error" role="alert">${escapeHtml(message)}</p>`,
    {
      status,
    },
  )
}

/** 303 See Other: after a POST the browser follows with a GET, never re-posting (RFC 9700 §4.11). */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store', ...headers } })
}

export function hidden(name: string, value: string): string {
  return `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`
}

/** Reads an `application/x-www-form-urlencoded` body (at most 16 KiB). */
export async function readForm(request: Request): Promise<URLSearchParams | null> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
  if (type !== 'application/x-www-form-urlencoded') return null
  const text = await request.text()
  if (text.length > 16 * 1024) return null
  return new URLSearchParams(text)
}
