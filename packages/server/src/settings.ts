import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { parseEnv } from 'node:util'
import { DEFAULT_PASSWORD_COST, MAX_PASSWORD_COST, MIN_PASSWORD_COST } from '@workgraph/core'
import { checkSqliteDirectory, DatabaseUrlError, maskUrl, parseDatabaseUrl } from '@workgraph/kysely'
import type { S3BlobStoreOptions } from './s3-blob-store.ts'

/** One environment setting of the reference server; docs/configuration.md is generated from these. */
export interface SettingDefinition {
  name: string
  /** What it does, for the docs table. */
  description: string
  /** The default, as the docs show it; absent for settings that are off unless set. */
  default?: string
  /** Checks a set value; returns a message saying what is wrong, or nothing. */
  check?: (value: string) => string | undefined
  /** A good value, shown when a set value is refused. */
  example?: string
  /** Never printed: a refusal shows `****` in its place. */
  secret?: boolean
}

/** The SQLite file used when `DATABASE_URL` is unset; its directory is the one the server creates. */
export const DEFAULT_DATABASE_URL = './.workgraph/workgraph.db'

const LOG_FORMATS = ['text', 'json'] as const
const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const
export type LogFormat = (typeof LOG_FORMATS)[number]
export type LogLevel = (typeof LOG_LEVELS)[number]

const integer = (min: number, max: number) => (value: string) =>
  /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max
    ? undefined
    : `must be a whole number from ${min} to ${max}`
const oneOf = (values: readonly string[]) => (value: string) =>
  values.includes(value) ? undefined : `must be one of ${values.join(', ')}`
const url = (protocols: string[]) => (value: string) => {
  try {
    return protocols.includes(new URL(value).protocol) ? undefined : `must be a ${protocols.join(' or ')} URL`
  } catch {
    return 'must be a URL'
  }
}

/** Every setting the reference server reads, in the order of docs/configuration.md. */
export const SETTINGS: readonly SettingDefinition[] = [
  {
    name: 'PORT',
    description: 'TCP port to listen on; `0` picks a free one.',
    default: '3000',
    check: integer(0, 65535),
    example: '3000',
  },
  { name: 'HOST', description: 'Address to listen on.', default: 'localhost' },
  {
    name: 'BASE_URL',
    description:
      'The public origin (issuer, OpenAPI `servers`, links in mail) when the server sits behind a proxy; by default the address really listened on.',
    check: url(['http:', 'https:']),
    example: 'https://work.example.com',
  },
  {
    name: 'DATABASE_URL',
    description:
      'A SQLite file path (its directory must exist) or `file:///` URL, or a `postgres://` URL; anything else is refused.',
    default: DEFAULT_DATABASE_URL,
    check: (value) => {
      try {
        const target = parseDatabaseUrl(value)
        if (target.dialect === 'sqlite' && value !== DEFAULT_DATABASE_URL) checkSqliteDirectory(target.path)
        return undefined
      } catch (error) {
        if (error instanceof DatabaseUrlError) return error.reason
        throw error
      }
    },
  },
  {
    name: 'DATABASE_DIRECT_URL',
    description:
      'Postgres only: a direct connection (not through a pooler in transaction mode) for what needs a session of its own, the event hub’s `LISTEN`; `DATABASE_URL` by default. Set it when `DATABASE_URL` is PgBouncer in `pool_mode = transaction` (docs/scale-out.md).',
    check: (value) => (/^postgres(ql)?:\/\//i.test(value) ? undefined : 'must be a postgres:// URL'),
    example: 'postgres://workgraph@db.internal:5432/workgraph',
  },
  {
    name: 'DATABASE_SCHEMA',
    description: 'Postgres only: the schema to work in (created if missing).',
    check: (value) => (/^[a-z_][a-z0-9_]*$/.test(value) ? undefined : 'must be a lower-case SQL name'),
    example: 'workgraph',
  },
  {
    name: 'BLOB_DIR',
    description:
      'Where attachment bytes are kept unless `S3_BUCKET` is set (docs/attachments.md); by default `blobs` beside the SQLite file, or `./.workgraph/blobs` with Postgres. Instances sharing a database must share it.',
  },
  {
    name: 'S3_BUCKET',
    description:
      'Keep attachment bytes in this S3 bucket instead of `BLOB_DIR` (docs/attachments.md); every instance can share it.',
  },
  {
    name: 'S3_ENDPOINT',
    description:
      'The S3 API to use instead of AWS: MinIO or any S3-compatible store, e.g. `http://minio:9000`.',
    check: url(['http:', 'https:']),
    example: 'http://127.0.0.1:9000',
  },
  { name: 'S3_REGION', description: "The bucket's region.", default: 'us-east-1' },
  {
    name: 'S3_FORCE_PATH_STYLE',
    description: '`true` names the bucket in the path rather than the host name, as MinIO needs.',
    default: 'false',
    check: oneOf(['true', 'false']),
    example: 'true',
  },
  {
    name: 'S3_ACCESS_KEY_ID',
    description:
      "With `S3_SECRET_ACCESS_KEY`, the bucket's credentials; unset, the AWS SDK's default chain (`AWS_*` variables, profile, instance role).",
  },
  { name: 'S3_SECRET_ACCESS_KEY', description: 'The secret of `S3_ACCESS_KEY_ID`.', secret: true },
  {
    name: 'S3_PREFIX',
    description: 'Put before every object name, e.g. `workgraph/`, to share a bucket.',
  },
  {
    name: 'MAX_UPLOAD_BYTES',
    description: 'The largest attachment, in bytes (25 MiB by default).',
    default: '26214400',
    check: integer(1, 1_099_511_627_776),
    example: '26214400',
  },
  {
    name: 'REDIS_URL',
    description:
      'Rate-limit counters shared by every instance (docs/reliability.md); else counted per instance.',
    check: url(['redis:', 'rediss:']),
    example: 'redis://127.0.0.1:6379',
  },
  {
    name: 'FIRST_PARTY_CLIENTS',
    description: "Comma-separated OAuth client ids of the service's own apps (docs/oauth.md).",
  },
  {
    name: 'PASSWORD_HASH_COST',
    description: `The cost of new password hashes, as log2 of scrypt's N (r=8, p=1): ${DEFAULT_PASSWORD_COST}, OWASP's floor, takes about 128 MiB and a tenth of a second per hash. Raise it where the machine can; a lower one is for development and tests only. Every hash keeps the cost it was made with, so a change applies to passwords set from then on (docs/oauth.md).`,
    default: String(DEFAULT_PASSWORD_COST),
    check: integer(MIN_PASSWORD_COST, MAX_PASSWORD_COST),
    example: String(DEFAULT_PASSWORD_COST),
  },
  {
    name: 'EVENT_RETENTION_DAYS',
    description: 'How long events stay readable by streams (docs/events.md).',
    default: '30',
    check: integer(1, 3650),
    example: '30',
  },
  {
    name: 'STREAM_PING_SECONDS',
    description: 'Interval of keep-alive frames on SSE streams.',
    default: '25',
    check: integer(1, 3600),
    example: '25',
  },
  {
    name: 'SHUTDOWN_TIMEOUT_SECONDS',
    description: 'How long SIGTERM waits for requests in flight before cutting them (docs/reliability.md).',
    default: '10',
    check: integer(0, 3600),
    example: '10',
  },
  {
    name: 'CONNECTORS_FILE',
    description: 'JSON file of the providers other tools are connected through (docs/connectors.md).',
  },
  {
    name: 'CONNECTORS_KEY',
    description:
      'Key encrypting connector tokens at rest: 32 random bytes, base64url. Required with `CONNECTORS_FILE`.',
    secret: true,
  },
  {
    name: 'SMTP_URL',
    description:
      'Send mail (invitations, sign-up and reset links, and notification mail: docs/mail.md) over SMTP: `smtp://user:password@host:587` (STARTTLS when offered) or `smtps://…:465`. Unset: printed to the log, and on SQLite kept in `<file>.mail.jsonl` (notification mail included); on Postgres without it no notification mail is sent.',
    check: url(['smtp:', 'smtps:']),
    example: 'smtp://user:password@mail.example.com:587',
  },
  {
    name: 'MAIL_FROM',
    description: 'The sender of that mail. Required with `SMTP_URL`.',
  },
  {
    name: 'LOG_FORMAT',
    description: 'Request and error logs as readable lines (`text`) or JSON lines (`json`).',
    default: 'text',
    check: oneOf(LOG_FORMATS),
    example: 'json',
  },
  {
    name: 'LOG_LEVEL',
    description:
      'Least severe log written: `debug` (also what each background pass did: notifier, scheduler, cycles, task automation), `info` (one line per request), `warn`, `error` or `silent`.',
    default: 'info',
    check: oneOf(LOG_LEVELS),
    example: 'info',
  },
  {
    name: 'ENV_FILE',
    description: 'A file of `NAME=value` lines read at start; variables already set in the environment win.',
    default: '.env',
  },
]

export interface ServerSettings {
  port: number
  host: string
  baseUrl?: string
  databaseUrl: string
  databaseSchema?: string
  /** Postgres: where the event hub listens; the same database as `databaseUrl`, without a pooler. */
  databaseDirectUrl?: string
  blobDir: string
  /** Set with `S3_BUCKET`: attachments go to S3 rather than `blobDir`. */
  s3?: S3BlobStoreOptions
  maxUploadBytes: number
  redisUrl?: string
  firstPartyClients: string[]
  passwordHashCost: number
  retentionDays: number
  pingSeconds: number
  shutdownTimeoutSeconds: number
  connectorsFile?: string
  connectorsKey?: string
  smtp?: { url: string; from: string }
  logFormat: LogFormat
  logLevel: LogLevel
}

/** A setting that is set but wrong; the server prints every one of them and exits. */
export class SettingsError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.map((p) => `Invalid setting ${p}`).join('\n'))
  }
}

/**
 * Reads the settings from `environment`, over the lines of `ENV_FILE` (`.env` by default) when that
 * file exists: a variable already set in the environment wins over the file, as with Node's loader.
 */
export function readSettings(environment: NodeJS.ProcessEnv = process.env): ServerSettings {
  const file = environment.ENV_FILE || '.env'
  if (environment.ENV_FILE && !existsSync(file)) throw new SettingsError([`ENV_FILE: ${file} does not exist`])
  const env: NodeJS.ProcessEnv = existsSync(file)
    ? { ...parseEnv(readFileSync(file, 'utf8')), ...environment }
    : environment

  const problems = SETTINGS.flatMap((s) => {
    const value = env[s.name]
    const wrong = value !== undefined && value !== '' ? s.check?.(value) : undefined
    if (!wrong) return []
    const shown = s.secret ? '****' : maskUrl(value!)
    return [`${s.name}=${shown}: ${wrong}${s.example ? `; for example ${s.name}=${s.example}` : ''}`]
  })
  if (env.CONNECTORS_FILE && !env.CONNECTORS_KEY)
    problems.push('CONNECTORS_FILE is set without CONNECTORS_KEY (32 random bytes, base64url)')
  if (env.SMTP_URL && !env.MAIL_FROM) problems.push('SMTP_URL is set without MAIL_FROM (the sender address)')
  if (Boolean(env.S3_ACCESS_KEY_ID) !== Boolean(env.S3_SECRET_ACCESS_KEY))
    problems.push('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither')
  if (problems.length > 0) throw new SettingsError(problems)

  const get = (name: string) => (env[name] === '' ? undefined : env[name])
  const fallback = (name: string) => SETTINGS.find((s) => s.name === name)!.default!
  const value = (name: string) => get(name) ?? fallback(name)
  return {
    port: Number(value('PORT')),
    host: value('HOST'),
    ...(get('BASE_URL') ? { baseUrl: get('BASE_URL')!.replace(/\/$/, '') } : {}),
    databaseUrl: value('DATABASE_URL'),
    ...(get('DATABASE_SCHEMA') ? { databaseSchema: get('DATABASE_SCHEMA') } : {}),
    ...(get('DATABASE_DIRECT_URL') ? { databaseDirectUrl: get('DATABASE_DIRECT_URL') } : {}),
    blobDir:
      get('BLOB_DIR') ??
      (/^postgres(ql)?:/.test(value('DATABASE_URL'))
        ? './.workgraph/blobs'
        : join(dirname(value('DATABASE_URL')), 'blobs')),
    ...(get('S3_BUCKET')
      ? {
          s3: {
            bucket: get('S3_BUCKET')!,
            region: value('S3_REGION'),
            forcePathStyle: value('S3_FORCE_PATH_STYLE') === 'true',
            ...(get('S3_ENDPOINT') ? { endpoint: get('S3_ENDPOINT') } : {}),
            ...(get('S3_PREFIX') ? { prefix: get('S3_PREFIX') } : {}),
            ...(get('S3_ACCESS_KEY_ID')
              ? {
                  credentials: {
                    accessKeyId: get('S3_ACCESS_KEY_ID')!,
                    secretAccessKey: get('S3_SECRET_ACCESS_KEY')!,
                  },
                }
              : {}),
          },
        }
      : {}),
    maxUploadBytes: Number(value('MAX_UPLOAD_BYTES')),
    ...(get('REDIS_URL') ? { redisUrl: get('REDIS_URL') } : {}),
    firstPartyClients: (get('FIRST_PARTY_CLIENTS') ?? '')
      .split(',')
      .map((id) => id.trim())
      .filter(Boolean),
    passwordHashCost: Number(value('PASSWORD_HASH_COST')),
    retentionDays: Number(value('EVENT_RETENTION_DAYS')),
    pingSeconds: Number(value('STREAM_PING_SECONDS')),
    shutdownTimeoutSeconds: Number(value('SHUTDOWN_TIMEOUT_SECONDS')),
    ...(get('CONNECTORS_FILE') ? { connectorsFile: get('CONNECTORS_FILE') } : {}),
    ...(get('CONNECTORS_KEY') ? { connectorsKey: get('CONNECTORS_KEY') } : {}),
    ...(get('SMTP_URL') ? { smtp: { url: get('SMTP_URL')!, from: get('MAIL_FROM')! } } : {}),
    logFormat: value('LOG_FORMAT') as LogFormat,
    logLevel: value('LOG_LEVEL') as LogLevel,
  }
}
