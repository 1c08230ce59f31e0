/**
 * The notifier the crash test kills: one `engine.notify()` on the database named by DATABASE_URL
 * (and DATABASE_SCHEMA on Postgres), over storage that kills this process with SIGKILL the moment
 * the notifier, having claimed its position and read the events, writes its first notification.
 * The transaction is left open, as a real crash leaves it. Prints `survived` if it ever gets past.
 */
import { createEngine } from '@workgraph/core'
import type { Store } from '@workgraph/core/storage'
import { openStorage } from '@workgraph/kysely'

const storage = await openStorage({
  url: process.env.DATABASE_URL!,
  ...(process.env.DATABASE_SCHEMA ? { schema: process.env.DATABASE_SCHEMA } : {}),
})
const dying = (store: Store): Store => ({
  ...store,
  notifications: {
    ...store.notifications,
    async insert() {
      process.kill(process.pid, 'SIGKILL')
      return new Promise<boolean>(() => {})
    },
  },
})
const engine = await createEngine({
  storage: { ...storage, transaction: (fn) => storage.transaction((store) => fn(dying(store))) },
  config: { baseUrl: 'http://notifier.test' },
})
await engine.notify()
console.log('survived')
