import { CliError } from './errors.ts'

/** What a create answers, as far as the CLI reads it. */
export interface Created {
  id: string
  slug?: string
}

/** A page of a list, as far as the CLI reads it. */
export interface Page<T = { id: string; name: string }> {
  data: T[]
  nextCursor: string | null
}

/** A JSON client for `/v1` bound to one access token. */
export interface Api {
  get<T = Page>(path: string): Promise<T>
  /** POST with an `Idempotency-Key`: a retry with the same key replays the first answer. */
  post<T = Created>(path: string, body: unknown, idempotencyKey?: string): Promise<T>
  /** PUT on an item: idempotent by itself, so no key is needed. */
  put<T = unknown>(path: string, body?: unknown): Promise<T>
  delete(path: string): Promise<void>
}

export function apiClient(origin: string, accessToken: string): Api {
  async function send(method: string, path: string, body?: unknown, key?: string) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${accessToken}`,
      accept: 'application/json',
    }
    if (body !== undefined) headers['content-type'] = 'application/json'
    if (key) headers['idempotency-key'] = key
    const response = await fetch(`${origin}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    })
    const text = await response.text()
    const parsed = text ? JSON.parse(text) : null
    if (!response.ok) {
      const detail = parsed?.detail ?? parsed?.title ?? response.statusText
      const pointers = Array.isArray(parsed?.errors)
        ? ` (${parsed.errors.map((e: { pointer: string; message: string }) => `${e.pointer}: ${e.message}`).join('; ')})`
        : ''
      throw new CliError(
        `${method} ${path} answered ${response.status} ${parsed?.code ?? ''}: ${detail}${pointers}`,
      )
    }
    return parsed
  }
  return {
    get: (path) => send('GET', path),
    post: (path, body, key) => send('POST', path, body, key),
    put: (path, body) => send('PUT', path, body),
    delete: async (path) => {
      await send('DELETE', path)
    },
  }
}
