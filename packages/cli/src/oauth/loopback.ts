import { spawn } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CliError } from '../errors.ts'

/** A one-shot HTTP listener on 127.0.0.1 that waits for the browser to come back (RFC 8252 §7.3). */
export interface LoopbackRedirect {
  redirectUri: string
  /** The full callback URL the browser landed on. */
  callback: Promise<URL>
  close(): void
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
  `<title>${title}</title><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem">` +
  `<h1>${title}</h1><p>${text}</p></body></html>`

/** Listens on an ephemeral port; only `/callback` counts, and only once. */
export async function openLoopback(options: { timeoutMs?: number } = {}): Promise<LoopbackRedirect> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const { port } = server.address() as AddressInfo
  const redirectUri = `http://127.0.0.1:${port}/callback`
  let timer: NodeJS.Timeout | undefined
  const close = () => {
    clearTimeout(timer)
    server.close()
    server.closeAllConnections()
  }
  const callback = new Promise<URL>((resolve, reject) => {
    timer = setTimeout(
      () => reject(new CliError('Gave up waiting for the browser to come back; run workgraph login again.')),
      options.timeoutMs ?? 5 * 60_000,
    )
    server.on('request', (request, response) => {
      const url = new URL(request.url ?? '/', redirectUri)
      if (request.method !== 'GET' || url.pathname !== '/callback') {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found')
        return
      }
      const failed = url.searchParams.get('error')
      response
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
        .end(
          failed
            ? PAGE('Sign-in did not complete', 'Go back to your terminal to see why.')
            : PAGE('You are signed in', 'The workgraph CLI has what it needs; you can close this tab.'),
        )
      resolve(url)
    })
  })
  return { redirectUri, callback, close }
}

/** Opens the URL in the person's browser if this machine has one; never fails the login. */
export function openBrowser(url: string): boolean {
  const env = process.env.BROWSER
  if (env === 'none') return false
  const [command, args] =
    env !== undefined && env !== ''
      ? [env, [url]]
      : process.platform === 'darwin'
        ? ['open', [url]]
        : process.platform === 'win32'
          ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
          : ['xdg-open', [url]]
  if (process.platform === 'linux' && !env && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY)
    return false
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.on('error', () => {})
    child.unref()
    return true
  } catch {
    return false
  }
}
