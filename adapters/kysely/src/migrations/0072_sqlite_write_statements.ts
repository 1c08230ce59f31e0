import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * SQLite writes one table per statement and has no data-modifying CTEs, so what Postgres writes as
 * one statement (issue 31) takes a statement per table there. Two schema objects let SQLite do the
 * same with one, the rules staying in core and the adapter:
 *
 * - `events_seq`: an event's sequence is its org's counter plus its place in the insert, read in the
 *   insert itself; the trigger moves the counter to each new event, and refuses an event that is not
 *   the counter's next, so sequences stay gap-free and in commit order (the write lock is held from
 *   the insert to commit) whatever SQLite evaluates first.
 * - `new_task_rows`: a view that stores nothing; an insert into it routes each row by `kind` to the
 *   table a new task's label, field value, history entry or subscription lives in, as the single
 *   writes stored them. Core decides every row; the triggers only route.
 *
 * Postgres needs neither (`events.append` and `tasks.create` are one statement each there).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') return
  await sql`
    create trigger events_seq after insert on events begin
      select raise(abort, 'events: seq is not the org counter''s next')
      where (select last_seq from org_event_counters where org_id = new.org_id) is not new.seq - 1;
      update org_event_counters set last_seq = new.seq where org_id = new.org_id;
    end`.execute(db)
  await sql`
    create view new_task_rows as select
      null as kind, null as org_id, null as task_id, null as ref, null as actor_id, null as automation,
      null as id, null as field, null as before_value, null as after_value, null as value_text,
      null as value_number, null as value_json, null as created_at
    where 0`.execute(db)
  await sql`
    create trigger new_task_rows_label instead of insert on new_task_rows when new.kind = 'label' begin
      insert into task_labels (org_id, task_id, label_id, created_by, created_at)
      values (new.org_id, new.task_id, new.ref, new.actor_id, new.created_at)
      on conflict (org_id, task_id, label_id) do nothing;
    end`.execute(db)
  await sql`
    create trigger new_task_rows_field instead of insert on new_task_rows when new.kind = 'field' begin
      insert into custom_field_values
        (org_id, record_kind, record_id, field_id, value_text, value_number, value_json, updated_at)
      values (new.org_id, 'task', new.task_id, new.ref, new.value_text, new.value_number, new.value_json, new.created_at)
      on conflict (org_id, record_kind, record_id, field_id) do update set value_text = excluded.value_text,
        value_number = excluded.value_number, value_json = excluded.value_json, updated_at = excluded.updated_at;
    end`.execute(db)
  await sql`
    create trigger new_task_rows_history instead of insert on new_task_rows when new.kind = 'history' begin
      insert into task_history
        (org_id, id, task_id, actor_id, automation, field, before_value, after_value, created_at)
      values (new.org_id, new.id, new.task_id, new.actor_id, new.automation, new.field, new.before_value,
        new.after_value, new.created_at);
    end`.execute(db)
  await sql`
    create trigger new_task_rows_subscriber instead of insert on new_task_rows when new.kind = 'subscriber' begin
      insert into task_subscribers (org_id, task_id, actor_id, created_at)
      values (new.org_id, new.task_id, new.ref, new.created_at)
      on conflict (org_id, task_id, actor_id) do nothing;
    end`.execute(db)
}
