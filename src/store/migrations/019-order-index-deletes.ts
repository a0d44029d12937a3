import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. SQLite's orders' text index (migration 011) removes a replaced entry from
// its segments itself (`secure-delete`) only where the old words may hold a personal value: when
// an order that was no longer open has its words changed (an erasure), and when a words row is
// deleted. The words of an open order are its number and its customer's id, which no erasure
// removes; replacing them (the confirmation, which adds the customer's name and e-mail) writes the
// new entry over them as FTS5 does by default, where a secure delete of them costs 0.4 ms per
// order at 10^6 orders (each short prefix of an order number is in a million orders' entries).
//
// FTS5 reads the option when it writes its pending changes, and writes them before the option
// changes: the triggers set it around their own statements, so that the rest of the transaction
// keeps the default. Every entry the index holds was written with secure-delete until now, so no
// earlier leftover needs removing. The index is then merged into one segment: a store filled in
// bulk keeps merging its segments on every later write (docs/performance.md).

const SECURE = "insert into order_text (order_text, rank) values ('secure-delete', 1);";
const DEFAULT = "insert into order_text (order_text, rank) values ('secure-delete', 0);";
const DELETE_OLD = "insert into order_text (order_text, rowid, words) values ('delete', old.order_id, old.words);";
const INSERT_NEW = 'insert into order_text (rowid, words) values (new.order_id, new.words);';
/** The old words may hold a personal value: the order was no longer open (orders/order.words.ts writes `~sopen` first). */
const CLOSED = "substr(old.states, 1, 7) <> '~sopen '";

const UPDATE_018 = `${DELETE_OLD} ${INSERT_NEW}`;
const DELETE_011 = DELETE_OLD;

async function trigger(db: Kysely<unknown>, name: string, on: string, body: string): Promise<void> {
  await sql.raw(`drop trigger ${name}`).execute(db);
  await sql.raw(`create trigger ${name} ${on} begin ${body} end`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql.raw(DEFAULT).execute(db);
  await trigger(db, 'order_words_au', 'after update of words on order_words when old.words <> new.words and not ' + CLOSED, UPDATE_018);
  await sql
    .raw(
      `create trigger order_words_au_closed after update of words on order_words when old.words <> new.words and ${CLOSED} begin ${SECURE} ${UPDATE_018} ${DEFAULT} end`,
    )
    .execute(db);
  await trigger(db, 'order_words_ad', 'after delete on order_words', `${SECURE} ${DELETE_011} ${DEFAULT}`);
  await sql`insert into order_text (order_text) values ('optimize')`.execute(db);
  await sql`insert into customer_text (customer_text) values ('optimize')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop trigger order_words_au_closed`.execute(db);
  await trigger(db, 'order_words_au', 'after update of words on order_words when old.words <> new.words', UPDATE_018);
  await trigger(db, 'order_words_ad', 'after delete on order_words', DELETE_011);
  await sql.raw(SECURE).execute(db);
}
