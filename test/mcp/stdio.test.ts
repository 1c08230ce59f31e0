import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { programArgs } from '../support/processes.ts'
import { hintsOf, tool } from './support.ts'

// The bin as a desktop assistant starts it: its own process, the local SQLite file, a user from the env.
describe('workgraph-mcp over stdio', () => {
  let client: Client
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'workgraph-mcp-'))
    client = new Client({ name: 'desktop', version: '1.0.0' })
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: programArgs('mcp-stdio'),
        env: {
          ...(process.env as Record<string, string>),
          DATABASE_URL: join(dir, 'local.db'),
          WORKGRAPH_USER: 'ada@example.com',
          WORKGRAPH_USER_NAME: 'Ada',
        },
        stderr: 'inherit',
      }),
    )
  })
  afterAll(() => client?.close())

  it('acts as the local user: plans a team and tasks, then finds them by name', async () => {
    expect((await tool(client, 'list_workspaces')).workspaces).toEqual([])
    expect(await tool(client, 'create_workspace', { name: 'Home' })).toMatchObject({ name: 'Home' })
    const plan = await tool(client, 'organize', {
      steps: [
        { action: 'create_team', handle: 'h', name: 'House', key: 'HOME' },
        {
          action: 'create_task',
          team: '$h',
          title: 'Fix the tap',
          assignee: 'ada@example.com',
          state: 'Todo',
        },
      ],
    })
    expect(plan.steps.map((s: any) => s.key)).toEqual(['HOME', 'HOME-1'])
    const found = await tool(client, 'search_tasks', { team: 'house', assignee: 'me' })
    expect(found.tasks).toEqual([
      {
        key: 'HOME-1',
        title: 'Fix the tap',
        state: 'Todo',
        assignee: 'Ada <ada@example.com>',
        priority: 'none',
      },
    ])
    const tools = (await client.listTools()).tools
    expect(hintsOf(tools.find((t) => t.name === 'organize')!)).toMatchObject({ destructiveHint: true })
    expect(hintsOf(tools.find((t) => t.name === 'search_tasks')!)).toMatchObject({ readOnlyHint: true })
  })
})
