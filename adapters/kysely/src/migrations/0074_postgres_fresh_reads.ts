import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Postgres: two reads that must see what a lock's previous holder committed, each a function taking
 * the lock where needed and reading with a snapshot of its own. A statement's snapshot is taken when
 * it starts, so a read in the statement that waits for a lock misses what was committed meanwhile; a
 * volatile function's query in read committed takes a fresh snapshot. Each lets a write fold a lock
 * and the read behind it into a statement it runs anyway (issue 31):
 *
 * - `task_list_top(org, kind, list)`: the highest rank in a task list (board column, project or
 *   cycle), the top of its `tasks_*_rank` index (migration 0066). `tasks.create` takes the team's next
 *   number, the lists' locks and their last ranks in one statement (tasks/rank/ranks.ts).
 * - `idempotency_answer(lock, principal, key, not_before)`: takes the Idempotency-Key's lock, then
 *   reads the key's stored answer; the org's standing read (access/standing.ts) reads it so.
 *
 * SQLite needs neither: its write lock is held from the first write to commit, and takes no others.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return
  await sql`
    create function task_list_top(in_org text, in_kind text, in_list text) returns text
    language plpgsql volatile as $$
    begin
      if in_kind = 'board' then
        return (select board_rank from tasks where org_id = in_org and state_id = in_list and deleted_at is null
          and board_rank is not null order by board_rank desc limit 1);
      elsif in_kind = 'project' then
        return (select project_rank from tasks where org_id = in_org and project_id = in_list and deleted_at is null
          and project_rank is not null order by project_rank desc limit 1);
      elsif in_kind = 'cycle' then
        return (select cycle_rank from tasks where org_id = in_org and cycle_id = in_list and deleted_at is null
          and cycle_rank is not null order by cycle_rank desc limit 1);
      end if;
      raise exception 'task_list_top: no list kind %', in_kind;
    end $$`.execute(db)
  await sql`
    create function idempotency_answer(in_lock text, in_principal text, in_key text, in_not_before timestamptz)
    returns setof idempotency_keys language plpgsql volatile as $$
    begin
      perform pg_advisory_xact_lock(hashtextextended(in_lock, 0));
      return query select * from idempotency_keys
        where principal_key = in_principal and key = in_key and created_at >= in_not_before;
    end $$`.execute(db)
}
