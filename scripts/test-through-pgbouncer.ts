/**
 * Runs vitest with every Postgres connection of the suites going through PgBouncer in transaction
 * mode (docs/scale-out.md): PgBouncer is started on loopback before TEST_DATABASE_URL's server
 * (default postgres://postgres@127.0.0.1:5432/test), serving each database under its own name;
 * what needs a session (making databases, the event hub's LISTEN) goes to Postgres directly
 * (TEST_DATABASE_DIRECT_URL). Arguments are vitest's: `npx tsx scripts/test-through-pgbouncer.ts
 * test/storage --reporter=dot`. PgBouncer is stopped when vitest exits.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startPgBouncer, stopComponent } from '../test/support/cluster/components.ts'

const direct = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const dir = mkdtempSync(join(tmpdir(), 'workgraph-pgbouncer-'))
const bouncer = await startPgBouncer(dir, new URL(direct), { anyDatabase: true })
console.log(`PgBouncer (pool_mode = transaction) at ${bouncer.url}, before ${direct}`)
const vitest = spawn('npx', ['vitest', 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    TEST_DATABASE_URL: bouncer.url,
    TEST_DATABASE_DIRECT_URL: direct,
    WORKGRAPH_REQUIRE_POSTGRES: '1',
  },
})
const code = await new Promise<number>((resolve) => vitest.once('exit', (c) => resolve(c ?? 1)))
await stopComponent(bouncer.child)
rmSync(dir, { recursive: true, force: true })
process.exit(code)
