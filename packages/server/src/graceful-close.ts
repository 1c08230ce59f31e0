import type { Server, ServerResponse } from 'node:http'

export interface GracefulClose {
  /**
   * Stops accepting connections, lets requests in flight finish (each connection is closed once
   * idle), and resolves when none is left; after `timeoutMs` it cuts whatever is still open
   * (a stuck upload, a long-lived stream the host did not end). `drained` is false when it had to.
   */
  close(timeoutMs: number): Promise<{ drained: boolean }>
}

/** Attach at start-up: from then on every response checks whether the server is closing. */
export function gracefulClose(server: Server): GracefulClose {
  let closing = false
  const active = new Set<ServerResponse>()
  server.on('request', (_request, response: ServerResponse) => {
    active.add(response)
    if (closing) response.shouldKeepAlive = false
    response.once('close', () => {
      active.delete(response)
      // A keep-alive connection that just finished its last request is idle now: let it go.
      if (closing) server.closeIdleConnections()
    })
  })
  return {
    async close(timeoutMs) {
      closing = true
      // Answers still to be written say `Connection: close`, so clients do not reuse the socket.
      for (const response of active) if (!response.headersSent) response.shouldKeepAlive = false
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeIdleConnections()
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeoutMs)
      })
      const outcome = await Promise.race([closed, late])
      clearTimeout(timer)
      if (outcome !== 'late') return { drained: true }
      server.closeAllConnections()
      await closed
      return { drained: false }
    },
  }
}
