import { type ChildProcess, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { accessTokenPath, credentialsPath } from '@workgraph/cli'
import { programArgs } from '../support/processes.ts'

const root = resolve(import.meta.dirname, '../..')

export interface CliRun {
  code: number | null
  stdout: string
  stderr: string
}

/** A private config home per test, so no run touches the developer's real credentials. */
export function cliEnvironment(): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'workgraph-cli-'))
  const { WORKGRAPH_SERVER: _ignored, ...inherited } = process.env
  return {
    ...inherited,
    XDG_CONFIG_HOME: join(home, 'config'),
    HOME: home,
    BROWSER: 'none',
    NO_COLOR: '1',
  }
}

/** Starts the real `workgraph` bin (bundled once per run from its sources, test/support/bundles.ts). */
export function startCli(args: string[], env: NodeJS.ProcessEnv): ChildProcess & { result: Promise<CliRun> } {
  const child = spawn(process.execPath, [...programArgs('workgraph'), ...args], { env, cwd: root })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => {
    stdout += chunk
  })
  child.stderr.on('data', (chunk) => {
    stderr += chunk
  })
  const result = new Promise<CliRun>((done) => child.on('close', (code) => done({ code, stdout, stderr })))
  return Object.assign(child, { result })
}

export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return startCli(args, env).result
}

/** Resolves with the first match of `pattern` in what the process wrote to stderr. */
export function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    let seen = ''
    const onData = (chunk: Buffer) => {
      seen += chunk
      const match = pattern.exec(seen)
      if (match) {
        child.stderr?.off('data', onData)
        resolvePromise(match[0])
      }
    }
    child.stderr?.on('data', onData)
    child.once('close', () => reject(new Error(`exited before printing ${pattern}:\n${seen}`)))
  })
}

/**
 * Signs the CLI of `env` in to `server` as `workgraph login` leaves it: credentials and a kept access
 * token (valid ten minutes, so its refresh token, a dummy here, is never needed).
 */
export function keepAccessToken(env: NodeJS.ProcessEnv, server: string, accessToken: string): void {
  const credentials = credentialsPath(server, env)
  mkdirSync(dirname(credentials), { recursive: true })
  writeFileSync(
    credentials,
    JSON.stringify({
      server,
      issuer: server,
      resource: `${server}/v1`,
      clientId: 'c',
      refreshToken: 'r',
      scope: '',
    }),
  )
  writeFileSync(
    accessTokenPath(server, env),
    JSON.stringify({ accessToken, issuer: server, expiresAt: new Date(Date.now() + 600_000).toISOString() }),
  )
}
