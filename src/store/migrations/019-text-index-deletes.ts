import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. SQLite's text indexes (migration 011) stop removing every replaced entry
// from their segments at once (`secure-delete`), which costs 20–25 µs per term at 10^6 orders
// (each word is seven terms, and the short prefixes' entries list every row): FTS5's default
// delete instead writes the new entry over the old one, which stays in an older segment, unseen,
// until FTS5 merges the segments.
// - Orders: only where the old words hold no personal value. An open order's words are its number
//   and its customer's id, which no erasure removes, and the confirmation only adds to them. A
//   words change of an order no longer open (an erasure) and a deleted words row delete securely.
// - Customers: every change of a customer's words (a new name, address, company). The erasure
//   merges the customers' index into one segment in its transaction (sqlite-sql.ts,
//   purgeReplacedWords), which leaves no earlier entry behind, as PostgreSQL's vacuum after an
//   erasure leaves no old row version.
// FTS5 reads the option when it writes its pending changes, and writes them before the option
// changes: the orders' triggers set it around their own statements, so that the rest of the
// transaction keeps the default. Every entry the indexes hold was written with secure-delete
// until now, so no earlier leftover needs removing. Both indexes are then merged into one segment:
// a store filled in bulk keeps merging its segments on every later write (docs/performance.md).

const SECURE = "insert into order_text (order_text, rank) values ('secure-delete', 1);";
const DEFAULT = "insert into order_text (order_text, rank) values ('secure-delete', 0);";
const DELETE_OLD = "insert into order_text (order_text, rowid, words) values ('delete', old.order_id, old.words);";
const INSERT_NEW = 'insert into order_text (rowid, words) values (new.order_id, new.words);';
/** The old words may hold a personal value: the order was no longer open (orders/order.words.ts writes `~sopen` first). */
const CLOSED = "substr(old.states, 1, 7) <> '~sopen '";

const UPDATE_018 = `${DELETE_OLD} ${INSERT_NEW}`;
const DELETE_011 = DELETE_OLD;

const CUSTOMER_UPDATE =
  "insert into customer_text (customer_text, rowid, words) values ('delete', old.doc, old.words);" +
  ' insert into customer_text (rowid, words) values (new.doc, new.words);';

async function trigger(db: Kysely<unknown>, name: string, on: string, body: string): Promise<void> {
  await sql.raw(`drop trigger ${name}`).execute(db);
  await sql.raw(`create trigger ${name} ${on} begin ${body} end`).execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql.raw(DEFAULT).execute(db);
  await sql`insert into customer_text (customer_text, rank) values ('secure-delete', 0)`.execute(db);
  await trigger(db, 'customer_words_au', 'after update of words on customer_words when old.words <> new.words', CUSTOMER_UPDATE);
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
  await trigger(db, 'customer_words_au', 'after update on customer_words', CUSTOMER_UPDATE);
  await sql`insert into customer_text (customer_text, rank) values ('secure-delete', 1)`.execute(db);
}
