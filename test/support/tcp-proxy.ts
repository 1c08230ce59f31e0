import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net'

export interface TcpProxy {
  port: number
  /** As a database restart looks from outside: open connections reset, new ones refused. */
  cut(): Promise<void>
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>
  close(): Promise<void>
}

/**
 * A loopback TCP proxy to `target`, for fault injection: the test cuts the server off from its
 * database and restores it, without touching the database everyone else is using.
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const sockets = new Set<Socket>()
  let server: Server
  let port = 0
  const listen = () =>
    new Promise<void>((resolve) => {
      server = createServer((client) => {
        const upstream = tcpConnect(target.port, target.host)
        for (const s of [client, upstream]) {
          sockets.add(s)
          s.on('close', () => sockets.delete(s))
          s.on('error', () => {})
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server.address() as { port: number }).port
        resolve()
      })
    })
  const stop = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()))
    for (const s of sockets) s.resetAndDestroy()
    await closed
  }
  await listen()
  return {
    get port() {
      return port
    },
    cut: stop,
    restore: listen,
    close: stop,
  }
}
