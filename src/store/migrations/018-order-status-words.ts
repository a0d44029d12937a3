import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. Each order's words end with its status, payment status and fulfilment
// status as words of their own (`~sopen ~punpaid ~funfulfilled`, orders/order.words.ts), so that a
// text search can ask the index for the orders that hold a word and one of the filter's statuses
// (orders/order.search.ts). A `~` starts each: no query word (letters and digits) starts one.
// SQLite's index is made anew with `~` as a letter of its tokenizer, so that `~sopen` is one word
// (it would otherwise be `sopen`, which a search for "sop" would find); PostgreSQL takes the
// words as lexemes as they are. Both indexes are built again after the words are rewritten: one
// build instead of a million replaced entries.

/** The statuses' words of the order `o`, as order.words.ts writes them. */
const STATES = "'~s' || lower(o.status) || ' ~p' || lower(o.payment_status) || ' ~f' || lower(o.fulfillment_status)";

/** SQLite: the words without any statuses' words (all of them come last, each starting with `~`). */
const WITHOUT_STATES = "case when instr(words, '~') > 0 then rtrim(substr(words, 1, instr(words, '~') - 1)) else words end";

/** FTS5 over order_words (migration 011's definition, 014's prefixes), with its triggers. */
async function sqliteIndex(db: Kysely<unknown>, tokenize: string): Promise<void> {
  await sql
    .raw(
      `create virtual table order_text using fts5(words, content='order_words', content_rowid='order_id', tokenize="${tokenize}", prefix='1 2 3 4 5 6')`,
    )
    .execute(db);
  // An erasure's replaced words leave the index at once (migration 011).
  await sql`insert into order_text (order_text, rank) values ('secure-delete', 1)`.execute(db);
  await sql`insert into order_text (order_text) values ('rebuild')`.execute(db);
  await sql
    .raw(
      `create trigger order_words_ai after insert on order_words begin insert into order_text (rowid, words) values (new.order_id, new.words); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger order_words_ad after delete on order_words begin insert into order_text (order_text, rowid, words) values ('delete', old.order_id, old.words); end`,
    )
    .execute(db);
  await sql
    .raw(
      'create trigger order_words_au after update on order_words begin' +
        " insert into order_text (order_text, rowid, words) values ('delete', old.order_id, old.words);" +
        ' insert into order_text (rowid, words) values (new.order_id, new.words); end',
    )
    .execute(db);
}

async function dropSqliteIndex(db: Kysely<unknown>): Promise<void> {
  for (const t of ['order_words_ai', 'order_words_ad', 'order_words_au']) await sql.raw(`drop trigger ${t}`).execute(db);
  await sql`drop table order_text`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index order_words_match`.execute(db);
    await sql
      .raw(
        `update order_words w set words = trim(regexp_replace(w.words, ' ?~.*$', '') || ' ' || ${STATES}) from orders o where o.order_id = w.order_id`,
      )
      .execute(db);
    await sql`create index order_words_match on order_words using gin (array_to_tsvector(string_to_array(words, ' ')))`.execute(db);
    return;
  }
  await dropSqliteIndex(db);
  await sql
    .raw(
      `update order_words set words = trim(${WITHOUT_STATES} || ' ' || coalesce((select ${STATES} from orders o where o.order_id = order_words.order_id), ''))`,
    )
    .execute(db);
  await sqliteIndex(db, "unicode61 remove_diacritics 0 tokenchars '~'");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`drop index order_words_match`.execute(db);
    await sql`update order_words set words = regexp_replace(words, ' ?~.*$', '') where words like '%~%'`.execute(db);
    await sql`create index order_words_match on order_words using gin (array_to_tsvector(string_to_array(words, ' ')))`.execute(db);
    return;
  }
  await dropSqliteIndex(db);
  await sql.raw(`update order_words set words = ${WITHOUT_STATES} where instr(words, '~') > 0`).execute(db);
  await sqliteIndex(db, 'unicode61 remove_diacritics 0');
}
