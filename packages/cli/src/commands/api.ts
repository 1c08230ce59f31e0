import { readFile } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { CliError } from '../errors.ts'
import { accessTokenFor } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/** `--data '{"title":"…"}'`, `--data @body.json`, or `--data @-` (stdin). */
async function bodyOf(data: string | undefined): Promise<string | undefined> {
  if (data === undefined) return undefined
  let text = data
  if (data === '@-') {
    const chunks: Buffer[] = []
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
    text = Buffer.concat(chunks).toString('utf8')
  } else if (data.startsWith('@')) text = await readFile(data.slice(1), 'utf8')
  try {
    JSON.parse(text)
  } catch (error) {
    throw new CliError(`--data is not JSON: ${(error as Error).message}`)
  }
  return text
}

export const api = defineCommand({
  meta: {
    name: 'api',
    description:
      'Call the API as the signed-in person (like gh api): workgraph api GET /v1/orgs; the access token is reused until it expires',
  },
  args: {
    method: { type: 'positional', required: true, description: `One of ${METHODS.join(', ')}` },
    path: { type: 'positional', required: true, description: 'The path, from /v1 (query string included)' },
    data: { type: 'string', description: 'The JSON body: the text itself, @file, or @- for stdin' },
    'idempotency-key': { type: 'string', description: 'Sent as Idempotency-Key (POST)' },
    'if-match': { type: 'string', description: 'Sent as If-Match' },
    include: { type: 'boolean', description: 'Print the status line and headers to stderr' },
    server: serverArg,
  },
  run: guarded(async ({ args }) => {
    const method = args.method.toUpperCase()
    if (!(METHODS as readonly string[]).includes(method))
      throw new CliError(`${args.method} is not a method; use one of ${METHODS.join(', ')}`)
    if (!args.path.startsWith('/'))
      throw new CliError(`${args.path} is not a path; start it with /, e.g. /v1/me`)
    const body = await bodyOf(args.data)
    const send = async (stale: boolean) => {
      const { origin, accessToken, cached } = await accessTokenFor(args.server, { stale })
      const headers: Record<string, string> = {
        authorization: `Bearer ${accessToken}`,
        accept: 'application/json',
      }
      if (body !== undefined) headers['content-type'] = 'application/json'
      if (args['idempotency-key']) headers['idempotency-key'] = args['idempotency-key']
      if (args['if-match']) headers['if-match'] = args['if-match']
      const response = await fetch(`${origin}${args.path}`, {
        method,
        headers,
        ...(body ? { body } : {}),
      }).catch((error: Error) => {
        throw new CliError(`Could not reach ${origin}: ${error.message}. Is the server running?`)
      })
      return { response, cached }
    }
    let { response, cached } = await send(false)
    // A kept token the server no longer takes (signed out elsewhere, keys rotated): one fresh try.
    if (response.status === 401 && cached) ({ response } = await send(true))
    if (args.include) {
      process.stderr.write(`${response.status} ${response.statusText}\n`)
      for (const [name, value] of response.headers) process.stderr.write(`${name}: ${value}\n`)
    }
    const text = await response.text()
    if (text) {
      const json = /json/.test(response.headers.get('content-type') ?? '')
      process.stdout.write(json ? `${JSON.stringify(JSON.parse(text), null, 2)}\n` : text)
    }
    if (!response.ok) {
      if (!args.include) process.stderr.write(`${response.status} ${response.statusText}\n`)
      process.exitCode = 1
    }
  }),
})
