import { DISTRIBUTION_COLUMN, REFERENCE_TABLES } from '@workgraph/kysely'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DATABASES, type DatabaseTarget, skipReason } from '../support/databases.ts'

const postgres = DATABASES.find((d) => d.name === 'postgres')!
const reason = skipReason(postgres)

/**
 * What keeps a freshly migrated Postgres schema from being distributed by workspace with Citus
 * (docs/scale-out.md): a table neither holding `org_id` nor named a reference table; a tenant
 * table's primary key or unique index without `org_id`; a foreign key between tenant tables that
 * does not match `org_id` to `org_id`; a reference table referring to a tenant table.
 */
async function shardingViolations(
  client: pg.Client,
  referenceTables: readonly string[] = REFERENCE_TABLES,
): Promise<string[]> {
  const reference = new Set(referenceTables)
  const tables = (
    await client.query<{ name: string; has_org: boolean }>(
      `select c.relname::text as name,
         exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = $1 and not a.attisdropped) as has_org
       from pg_class c where c.relnamespace = current_schema()::regnamespace and c.relkind in ('r', 'p')`,
      [DISTRIBUTION_COLUMN],
    )
  ).rows
  const tenant = new Set(tables.filter((t) => !reference.has(t.name) && t.has_org).map((t) => t.name))
  const problems = tables
    .filter((t) => !reference.has(t.name) && !t.has_org)
    .map((t) => `${t.name}: no ${DISTRIBUTION_COLUMN} and not a reference table`)
  const unique = await client.query<{ table: string; index: string; columns: string[] }>(
    `select t.relname::text as table, i.relname::text as index,
       array(select a.attname::text from unnest(x.indkey) k join pg_attribute a on a.attrelid = t.oid and a.attnum = k) as columns
     from pg_index x join pg_class t on t.oid = x.indrelid join pg_class i on i.oid = x.indexrelid
     where t.relnamespace = current_schema()::regnamespace and x.indisunique`,
  )
  for (const u of unique.rows)
    if (tenant.has(u.table) && !u.columns.includes(DISTRIBUTION_COLUMN))
      problems.push(
        `${u.table}: unique index ${u.index} (${u.columns.join(', ')}) lacks ${DISTRIBUTION_COLUMN}`,
      )
  const keys = await client.query<{
    table: string
    name: string
    target: string
    from: string[]
    to: string[]
  }>(
    `select t.relname as table, c.conname as name, r.relname as target,
       array(select a.attname::text from unnest(c.conkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.n order by k.i) as from,
       array(select a.attname::text from unnest(c.confkey) with ordinality k(n, i) join pg_attribute a on a.attrelid = c.confrelid and a.attnum = k.n order by k.i) as to
     from pg_constraint c join pg_class t on t.oid = c.conrelid join pg_class r on r.oid = c.confrelid
     where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`,
  )
  for (const k of keys.rows) {
    if (reference.has(k.table) && tenant.has(k.target))
      problems.push(`${k.table}: reference table refers to tenant table ${k.target} (${k.name})`)
    const at = k.from.indexOf(DISTRIBUTION_COLUMN)
    if (tenant.has(k.table) && tenant.has(k.target) && (at < 0 || k.to[at] !== DISTRIBUTION_COLUMN))
      problems.push(`${k.table}: foreign key ${k.name} to ${k.target} does not match ${DISTRIBUTION_COLUMN}`)
  }
  return problems.sort()
}

describe.skipIf(Boolean(reason))(
  `a schema ready to shard by workspace [postgres]${reason ? ` (skipped: ${reason})` : ''}`,
  () => {
    let target: DatabaseTarget
    let client: pg.Client
    beforeAll(async () => {
      target = await postgres.fresh()
      client = new pg.Client({ connectionString: target.url })
      await client.connect()
    })
    afterAll(async () => {
      await client.end()
      await target.drop()
    })

    it('has no tenant table whose primary key, unique indexes or foreign keys lack org_id', async () => {
      expect(await shardingViolations(client)).toEqual([])
      // Every reference table named exists, so the list cannot keep a stale exemption.
      const names = (
        await client.query<{ relname: string }>(
          `select relname from pg_class where relnamespace = current_schema()::regnamespace and relkind = 'r'`,
        )
      ).rows.map((r) => r.relname)
      expect(REFERENCE_TABLES.filter((t) => !names.includes(t))).toEqual([])
    })

    it('names each kind of table that breaks the rules', async () => {
      await client.query('begin')
      try {
        await client.query(
          `create table probe_tenant (org_id text not null, id text primary key, token text unique)`,
        )
        await client.query(`create table probe_loose (id text primary key)`)
        await client.query(
          `create table probe_child (org_id text not null, id text, parent_id text references probe_tenant (id), primary key (org_id, id))`,
        )
        await client.query(
          `create table users_probe_ref (id text primary key, org_id text, tenant_id text references probe_tenant (id))`,
        )
        expect(await shardingViolations(client, [...REFERENCE_TABLES, 'users_probe_ref'])).toEqual([
          'probe_child: foreign key probe_child_parent_id_fkey to probe_tenant does not match org_id',
          'probe_loose: no org_id and not a reference table',
          'probe_tenant: unique index probe_tenant_pkey (id) lacks org_id',
          'probe_tenant: unique index probe_tenant_token_key (token) lacks org_id',
          'users_probe_ref: reference table refers to tenant table probe_tenant (users_probe_ref_tenant_id_fkey)',
        ])
      } finally {
        await client.query('rollback')
      }
    })
  },
)
