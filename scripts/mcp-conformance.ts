/**
 * Runs the MCP conformance suite (`@modelcontextprotocol/conformance`) against a real server: the
 * reference h3 app on loopback with a fresh SQLite database. The suite's client sends no token, so
 * this host authenticates every /mcp request as one fixed local user (`mcp.authenticate`), as a
 * loopback development host may; production keeps OAuth. Exits non-zero when a scenario fails.
 *
 *   npx tsx --conditions=dev-source scripts/mcp-conformance.ts
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createUser, type Principal } from '@workgraph/core'
import { startServer } from '@workgraph/server'

// Version 0.1.16 has no `server-session-lifecycle` scenario; sessions are covered by test/mcp/http.test.ts.
const SCENARIOS = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'prompts-list',
  'logging-set-level',
  'dns-rebinding-protection',
]

let principal: Principal | null = null
const server = await startServer({
  databaseUrl: join(mkdtempSync(join(tmpdir(), 'workgraph-conformance-')), 'conformance.db'),
  mcp: { authenticate: () => principal },
})
const user = await createUser(server.storage, { email: 'local@example.com', name: 'Local' })
principal = {
  userId: user.id,
  scopes: new Set(['work:read', 'work:write', 'agents:run']),
  clientId: 'conformance',
}

const failed: string[] = []
for (const scenario of SCENARIOS) {
  // Asynchronous: the server answers from this very process.
  const child = spawn(
    process.execPath,
    [
      // Node 20 lacks fs.globSync, which the CLI imports but the server scenarios never use.
      ...(Number(process.versions.node.split('.')[0]) < 22
        ? ['--import', './scripts/conformance/node20.mjs']
        : []),
      'node_modules/@modelcontextprotocol/conformance/dist/index.js',
      'server',
      '--url',
      `${server.url}/mcp`,
      '--scenario',
      scenario,
    ],
    { stdio: 'inherit' },
  )
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve))
  if (code !== 0) failed.push(scenario)
}
await server.close()
console.log(
  failed.length
    ? `Conformance failed: ${failed.join(', ')}`
    : `Conformance passed: ${SCENARIOS.length} scenarios`,
)
process.exit(failed.length ? 1 : 0)
