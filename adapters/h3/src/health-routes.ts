import type { Engine } from '@workgraph/core'
import type { H3 } from 'h3'

const plain = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  })

/**
 * Probes for orchestrators, outside `/v1` (whose only unauthenticated operation is `/v1/config`):
 * `/livez` answers while the process serves requests; `/readyz` also asks the database, and says
 * 503 while it cannot be reached, so a load balancer stops sending work to this instance. Its
 * `mail` says how the notification mail outbox fares (pending, retrying, given up, the last error;
 * docs/mail.md), for the operator: mail trouble never makes an instance unready. `GET /` sends a
 * browser to the reference.
 */
export function registerHealthRoutes(app: H3, engine: Engine): void {
  app.get('/livez', () => plain(200, { status: 'live' }))
  app.get('/readyz', async () => {
    try {
      await engine.storage.ping()
      const mail = await engine.mailStatus()
      return plain(200, { status: 'ready', database: engine.storage.dialect, mail })
    } catch {
      return plain(503, { status: 'unavailable', database: engine.storage.dialect })
    }
  })
  app.get('/', () => new Response(null, { status: 302, headers: { location: '/v1/docs' } }))
}
