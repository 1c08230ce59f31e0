import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { describe, expect, it } from 'vitest'
import { programArgs } from '../support/processes.ts'

/** Starts the stdio bin as a host would; resolves with why it refused, as the host and its log see it. */
async function refusal(env: Record<string, string>): Promise<{ shown: string; logged: string }> {
  const { WORKGRAPH_USER: _u, WORKGRAPH_USER_NAME: _n, ...inherited } = process.env as Record<string, string>
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: programArgs('mcp-stdio'),
    env: {
      ...inherited,
      DATABASE_URL: join(mkdtempSync(join(tmpdir(), 'workgraph-mcp-')), 'local.db'),
      ...env,
    },
    stderr: 'pipe',
  })
  let logged = ''
  transport.stderr?.on('data', (chunk) => {
    logged += chunk
  })
  const client = new Client({ name: 'desktop', version: '1.0.0' })
  const shown = await client.connect(transport).then(
    () => 'connected',
    (error: Error) => error.message,
  )
  await client.close()
  return { shown, logged }
}

describe('workgraph-mcp refuses to start with one line that says what to set', () => {
  it('names a missing WORKGRAPH_USER, to the host and in its log', async () => {
    const { shown, logged } = await refusal({})
    expect(shown).toContain('WORKGRAPH_USER is not set')
    expect(logged.trim().split('\n')).toEqual([
      expect.stringMatching(/^workgraph-mcp: WORKGRAPH_USER is not set: set it to the email/),
    ])
  })

  it('names an email that is no person, and how to create one', async () => {
    const { shown, logged } = await refusal({ WORKGRAPH_USER: 'nobody@example.com' })
    expect(shown).toContain('WORKGRAPH_USER=nobody@example.com is no person')
    expect(logged.trim().split('\n')).toHaveLength(1)
    expect(logged).toContain('WORKGRAPH_USER_NAME')
    expect(logged).not.toMatch(/\n\s+at /)
  })
})
