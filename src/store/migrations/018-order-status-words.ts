import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. Beside each order's words, its status, payment status and fulfilment
// status as words of their own (`order_words.states`: `~sopen ~punpaid ~funfulfilled`,
// orders/order.words.ts), so that a text search can ask for the orders that hold a word and one of
// the filter's statuses without reading the filter's range (orders/order.search.ts). A `~` starts
// each: no query word (letters and digits) starts one.
// PostgreSQL: the GIN index is built again over the words and the states, so that it intersects
// them itself. SQLite: the FTS5 index keeps the words alone, and its update trigger now runs only
// when the words change: a status's write then leaves the index alone, where a rewrite of the
// row's entry costs milliseconds at 10^6 orders (secure-delete). The states are read from the
// words rows the index finds.

/** The statuses' words of the order `o`, as order.words.ts writes them. */
const STATES = "'~s' || lower(o.status) || ' ~p' || lower(o.payment_status) || ' ~f' || lower(o.fulfillment_status)";

const UPDATE_TRIGGER =
  "insert into order_text (order_text, rowid, words) values ('delete', old.order_id, old.words);" +
  ' insert into order_text (rowid, words) values (new.order_id, new.words);';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table order_words add column states text not null default ''`.execute(db);
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index order_words_match`.execute(db);
    await sql.raw(`update order_words w set states = ${STATES} from orders o where o.order_id = w.order_id`).execute(db);
    // Built after the update: one sort instead of a million index insertions.
    await sql`create index order_words_match on order_words using gin (array_to_tsvector(string_to_array(words, ' ') || string_to_array(states, ' ')))`.execute(
      db,
    );
    return;
  }
  await sql`drop trigger order_words_au`.execute(db);
  await sql
    .raw(`update order_words set states = coalesce((select ${STATES} from orders o where o.order_id = order_words.order_id), '')`)
    .execute(db);
  await sql
    .raw(`create trigger order_words_au after update of words on order_words when old.words <> new.words begin ${UPDATE_TRIGGER} end`)
    .execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index order_words_match`.execute(db);
    await sql`alter table order_words drop column states`.execute(db);
    await sql`create index order_words_match on order_words using gin (array_to_tsvector(string_to_array(words, ' ')))`.execute(db);
    return;
  }
  await sql`drop trigger order_words_au`.execute(db);
  await sql`alter table order_words drop column states`.execute(db);
  await sql.raw(`create trigger order_words_au after update on order_words begin ${UPDATE_TRIGGER} end`).execute(db);
}
