/** Child server processes for the tests that need a real process (crash, several instances). */
import { type ChildProcess, spawn } from 'node:child_process'
import { join } from 'node:path'
import { inject } from 'vitest'
import type { ChildProgram } from './bundles.ts'

const root = join(import.meta.dirname, '../..')

/** The arguments that run one of the run's bundled programs with `process.execPath` (test/support/bundles.ts). */
export function programArgs(program: ChildProgram): string[] {
  return ['--enable-source-maps', join(inject('bundles'), `${program}.mjs`)]
}

// Here too, where the tests that start processes look for it.
export { freePort } from './ports.ts'

/** Starts `test/support/crash-server.ts` with `env`, resolved once it prints `ready`. */
export function startCrashServer(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, programArgs('crash-server'), {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (chunk) => {
      out += chunk
      if (out.includes('ready')) resolve(child)
    })
    child.once('exit', (code) => reject(new Error(`server exited with ${code} before it was ready`)))
  })
}

/**
 * The reference server's bin (bundled) in `cwd` with `env` over the test's environment (without
 * Vite's BASE_URL or a DATABASE_URL the test did not set), resolved once its banner is out with
 * everything it printed: the bin as an operator starts it.
 */
export async function startServerBin(
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; banner: string }> {
  const { BASE_URL: _vite, DATABASE_URL: _db, ...inherited } = process.env
  const child = spawn(process.execPath, programArgs('server'), {
    cwd,
    env: { ...inherited, HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let banner = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk) => {
      banner += chunk
      if (banner.includes('workgraph login')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${banner}`)))
  })
  return { child, banner }
}

/** Sends SIGTERM and waits for the process to exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await new Promise((resolve) => child.once('exit', resolve))
}
