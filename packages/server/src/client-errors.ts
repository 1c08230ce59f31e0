import type { Server } from 'node:http'
import type { Duplex } from 'node:stream'
import { ProblemError } from '@workgraph/core'

/**
 * Node's HTTP parser refuses some requests before any route runs: a request line or headers over
 * its size limit, or bytes that are not HTTP. Its default answer is an empty 400 or 431; this
 * answers with a problem document instead, like every other failure, then closes the connection.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or timed-out connection has nobody left to read an answer.
    if (error.code === 'ECONNRESET' || error.code === 'ERR_HTTP_REQUEST_TIMEOUT' || !socket.writable) {
      socket.destroy()
      return
    }
    const problem =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? new ProblemError('headers_too_large', 'The request line and headers must fit in 16 KiB.')
        : new ProblemError('bad_request', 'The request is not well-formed HTTP/1.1.')
    const body = JSON.stringify(problem.toDocument())
    socket.end(
      [
        `HTTP/1.1 ${problem.status} ${problem.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
        'content-type: application/problem+json; charset=utf-8',
        `content-length: ${Buffer.byteLength(body)}`,
        'cache-control: no-store',
        'access-control-allow-origin: *',
        'connection: close',
        '',
        body,
      ].join('\r\n'),
    )
  })
}
