import type { RequestRecord } from '@workgraph/h3'
import type { LogFormat, LogLevel } from './settings.ts'

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 99 }

export interface Logger {
  request(record: RequestRecord): void
  debug(message: string, fields?: Record<string, unknown>): void
  info(message: string, fields?: Record<string, unknown>): void
  warn(message: string, fields?: Record<string, unknown>): void
  error(message: string, error: unknown, fields?: Record<string, unknown>): void
}

/**
 * Writes request and error lines to stdout/stderr: readable text, or one JSON object per line for a
 * log collector (`LOG_FORMAT=json`). Requests log at `info`; answers of 500 and above at `error`; what
 * each background pass did (notifier, scheduler, cycles, task automation) at `debug`.
 */
export function createLogger(
  options: { format: LogFormat; level: LogLevel },
  out: { log(line: string): void; error(line: string): void } = console,
): Logger {
  const enabled = (level: LogLevel) => RANK[level] >= RANK[options.level]
  const write = (level: Exclude<LogLevel, 'silent'>, message: string, fields: Record<string, unknown>) => {
    if (!enabled(level)) return
    const sink = level === 'error' || level === 'warn' ? out.error.bind(out) : out.log.bind(out)
    if (options.format === 'json') {
      sink(JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...fields }))
      return
    }
    const rest = Object.entries(fields)
      .filter(([key]) => key !== 'stack')
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ')
    sink(`${level.toUpperCase().padEnd(5)} ${message}${rest ? ` ${rest}` : ''}`)
    if (typeof fields.stack === 'string') sink(fields.stack)
  }
  return {
    request(r) {
      const level = r.status >= 500 ? 'error' : 'info'
      const fields = { status: r.status, durationMs: r.durationMs, requestId: r.requestId }
      if (options.format === 'json') write(level, 'request', { method: r.method, path: r.path, ...fields })
      else write(level, `${r.method} ${r.path} ${r.status} ${r.durationMs} ms`, { requestId: r.requestId })
    },
    debug: (message, fields = {}) => write('debug', message, fields),
    info: (message, fields = {}) => write('info', message, fields),
    warn: (message, fields = {}) => write('warn', message, fields),
    error: (message, error, fields = {}) =>
      write('error', message, {
        ...fields,
        error: error instanceof Error ? error.message : String(error),
        ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
      }),
  }
}
