import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { ProblemError } from '@workgraph/core'

/** The port is held by another process; the message says what to do. */
export class PortInUseError extends Error {
  constructor(
    readonly port: number,
    host: string,
  ) {
    super(
      `Port ${port} on ${host} is already in use (another workgraph, or another program). ` +
        'Stop that process, or start with PORT set to a free port (PORT=0 picks one).',
    )
  }
}

/**
 * Binds the port before anything else starts, so the server never advertises an address it does
 * not hold. Until `serve` is called, requests get a 503 saying the server is starting.
 */
export async function bindServer(
  port: number,
  host: string,
): Promise<{
  server: Server
  port: number
  serve(handler: (req: IncomingMessage, res: ServerResponse) => void): void
}> {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined
  const server = createServer((req, res) => {
    if (handler) return handler(req, res)
    res.writeHead(503, { 'content-type': 'application/problem+json', 'retry-after': '1' })
    res.end(
      JSON.stringify(
        new ProblemError('service_unavailable', 'The server is starting; retry in a moment.').toDocument(),
      ),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'EADDRINUSE' ? new PortInUseError(port, host) : error),
    )
    server.listen(port, host, () => resolve())
  })
  return {
    server,
    port: (server.address() as AddressInfo).port,
    serve(next) {
      handler = next
    },
  }
}
