import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { indexedWords } from '../text-words.js';

// Frozen once released. The text search's index (docs/customers.md, "Text search"):
// each customer's and each order's folded words (store/text-words.ts), one row each, written
// by the repositories in the same transaction as the row they describe.
//
// SQLite: an FTS5 table over each words table (external content, so the words are stored once),
// kept by triggers on it; `secure-delete` removes a replaced row's words from the index itself, as
// an erasure needs (otherwise FTS5 keeps them until a merge). prefix='2 3' indexes the short
// prefixes a search starts with. The tokenizer only splits at the spaces: the words are folded.
// PostgreSQL: a GIN index over the words as tsvector lexemes, matched by prefix (`'mull':*`).
//
// Existing rows are indexed here, read in keyset batches.

const BATCH = 2000;

/** The customer columns whose words are searched (CustomerId, ExternalId, names, company, place). */
const CUSTOMER_COLUMNS = ['customer_id', 'external_id', 'first_name', 'last_name', 'company', 'postal_code', 'city'] as const;
/** The stored confirmation's fields whose words are searched (storage names, as of this migration). */
const CONFIRMATION_KEYS = ['customer_first_name', 'customer_last_name', 'customer_email', 'external_customer_id'] as const;

type Row = Record<string, unknown>;
const text = (v: unknown): string | null => (typeof v === 'string' ? v : v == null ? null : String(v));

function orderWords(row: Row): string {
  const stored = typeof row.confirmation === 'string' ? (JSON.parse(row.confirmation) as Row) : {};
  return indexedWords([text(row.order_number), text(row.customer_id), ...CONFIRMATION_KEYS.map((k) => text(stored[k]))]);
}

async function backfillCustomers(db: Kysely<unknown>): Promise<void> {
  let after = '';
  for (;;) {
    const { rows } =
      await sql<Row>`select ${sql.join(CUSTOMER_COLUMNS.map((c) => sql.ref(c)))} from customers where customer_id > ${after} order by customer_id limit ${BATCH}`.execute(
        db,
      );
    if (rows.length === 0) return;
    const values = rows.map((r) => sql`(${r.customer_id}, ${indexedWords(CUSTOMER_COLUMNS.map((c) => text(r[c])))})`);
    await sql`insert into customer_words (customer_id, words) values ${sql.join(values)}`.execute(db);
    after = String(rows[rows.length - 1]!.customer_id);
  }
}

async function backfillOrders(db: Kysely<unknown>): Promise<void> {
  let after = 0;
  for (;;) {
    const { rows } =
      await sql<Row>`select order_id, order_number, customer_id, confirmation from orders where order_id > ${after} order by order_id limit ${BATCH}`.execute(
        db,
      );
    if (rows.length === 0) return;
    const values = rows.map((r) => sql`(${Number(r.order_id)}, ${orderWords(r)})`);
    await sql`insert into order_words (order_id, words) values ${sql.join(values)}`.execute(db);
    after = Number(rows[rows.length - 1]!.order_id);
  }
}

/** FTS5 over a words table whose integer primary key is `key`; triggers keep it in step. */
async function sqliteIndex(db: Kysely<unknown>, words: string, fts: string, key: string): Promise<void> {
  const f = sql.table(fts);
  await sql`create virtual table ${f} using fts5(words, content=${sql.lit(words)}, content_rowid=${sql.lit(key)}, tokenize='unicode61 remove_diacritics 0', prefix='2 3')`.execute(
    db,
  );
  await sql`insert into ${f} (${f}, rank) values ('secure-delete', 1)`.execute(db);
  // The backfilled rows at once, then the triggers for every later write.
  await sql`insert into ${f} (${f}) values ('rebuild')`.execute(db);
  await sql
    .raw(`create trigger ${words}_ai after insert on ${words} begin insert into ${fts} (rowid, words) values (new.${key}, new.words); end`)
    .execute(db);
  await sql
    .raw(
      `create trigger ${words}_ad after delete on ${words} begin insert into ${fts} (${fts}, rowid, words) values ('delete', old.${key}, old.words); end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger ${words}_au after update on ${words} begin` +
        ` insert into ${fts} (${fts}, rowid, words) values ('delete', old.${key}, old.words);` +
        ` insert into ${fts} (rowid, words) values (new.${key}, new.words); end`,
    )
    .execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (pg) {
    await sql`create table customer_words (customer_id text primary key, words text not null)`.execute(db);
    await sql`create table order_words (order_id bigint primary key, words text not null)`.execute(db);
  } else {
    // An integer key of its own: FTS5 addresses rows by rowid, and VACUUM may renumber the implicit one.
    await sql`create table customer_words (doc integer primary key, customer_id text not null unique, words text not null)`.execute(db);
    await sql`create table order_words (order_id integer primary key, words text not null)`.execute(db);
  }
  await backfillCustomers(db);
  await backfillOrders(db);
  if (pg) {
    // Built after the backfill: one sort instead of a million index insertions.
    await sql`create index customer_words_match on customer_words using gin (array_to_tsvector(string_to_array(words, ' ')))`.execute(db);
    await sql`create index order_words_match on order_words using gin (array_to_tsvector(string_to_array(words, ' ')))`.execute(db);
  } else {
    await sqliteIndex(db, 'customer_words', 'customer_text', 'doc');
    await sqliteIndex(db, 'order_words', 'order_text', 'order_id');
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  if (!pg) {
    await sql`drop table order_text`.execute(db);
    await sql`drop table customer_text`.execute(db);
  }
  await sql`drop table order_words`.execute(db);
  await sql`drop table customer_words`.execute(db);
}
