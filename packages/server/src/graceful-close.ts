import type { Server, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface GracefulClose {
  /**
   * Stops accepting connections, lets requests in flight finish (each connection is closed once
   * idle), and resolves when none is left; after `timeoutMs` it cuts whatever is still open
   * (a stuck upload, a long-lived stream the host did not end). `drained` is false when it had to.
   */
  close(timeoutMs: number): Promise<{ drained: boolean }>
}

/** What a connection is doing: answers in flight, and the bytes it had read when the last one ended. */
interface Connection {
  inFlight: number
  readAtIdle: number
}

/** Attach at start-up: from then on every response checks whether the server is closing. */
export function gracefulClose(server: Server): GracefulClose {
  let closing = false
  const active = new Set<ServerResponse>()
  const connections = new Map<Socket, Connection>()
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { inFlight: 0, readAtIdle: 0 })
    socket.once('close', () => connections.delete(socket))
  })
  /**
   * A connection with no request in flight and no byte of a next one: a keep-alive socket between
   * requests, or one a browser opened ahead and never used (Node's `closeIdleConnections` knows only
   * the first kind). Such a connection ends at once rather than holding the drain to its deadline.
   */
  const endIfIdle = (socket: Socket) => {
    const state = connections.get(socket)
    if (state && state.inFlight === 0 && socket.bytesRead === state.readAtIdle) socket.destroy()
  }
  server.on('request', (request, response: ServerResponse) => {
    active.add(response)
    const state = connections.get(request.socket)
    if (state) state.inFlight++
    if (closing) response.shouldKeepAlive = false
    response.once('close', () => {
      active.delete(response)
      if (state) {
        state.inFlight--
        state.readAtIdle = request.socket.bytesRead
      }
      // A keep-alive connection that just finished its last request is idle now: let it go. Only
      // this one: the others idle at `close` were ended then, and each later one ends here at its
      // own last response (walking every connection here made ending 10,000 streams quadratic).
      if (closing) endIfIdle(request.socket)
    })
  })
  return {
    async close(timeoutMs) {
      closing = true
      // Answers still to be written say `Connection: close`, so clients do not reuse the socket.
      for (const response of active) if (!response.headersSent) response.shouldKeepAlive = false
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      for (const socket of connections.keys()) endIfIdle(socket)
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs)
      })
      const outcome = await Promise.race([closed, late])
      clearTimeout(timer)
      if (outcome !== 'late') return { drained: true }
      server.closeAllConnections()
      // closeAllConnections knows only connections that sent a request: cut the others too.
      for (const socket of connections.keys()) socket.destroy()
      await closed
      return { drained: false }
    },
  }
}
