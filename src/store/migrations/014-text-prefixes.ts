import { PostgresAdapter, sql, type Kysely } from 'kysely';

// Frozen once released. The text search's SQLite index (migration 011) rebuilt with prefix indexes
// for 1 to 6 letters: a query word up to six letters long is one index entry, whose matches FTS5
// reads lazily and seeks through; a longer one is asked by its first six letters and checked whole
// (store/sqlite/sqlite-sql.ts). Without an index of its length, a prefix gathers the matches of
// every word it starts before the first one is read. PostgreSQL's index stays as it is.

const TABLES = [
  { words: 'customer_words', fts: 'customer_text', key: 'doc' },
  { words: 'order_words', fts: 'order_text', key: 'order_id' },
] as const;

async function recreate(db: Kysely<unknown>, prefix: string): Promise<void> {
  for (const t of TABLES) {
    const f = sql.table(t.fts);
    // The triggers on the words table name the FTS5 table: a new one of the same name is theirs.
    await sql`drop table ${f}`.execute(db);
    await sql`create virtual table ${f} using fts5(words, content=${sql.lit(t.words)}, content_rowid=${sql.lit(t.key)}, tokenize='unicode61 remove_diacritics 0', prefix=${sql.lit(prefix)})`.execute(
      db,
    );
    // An erasure's replaced words leave the index at once (migration 011).
    await sql`insert into ${f} (${f}, rank) values ('secure-delete', 1)`.execute(db);
    await sql`insert into ${f} (${f}) values ('rebuild')`.execute(db);
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await recreate(db, '1 2 3 4 5 6');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await recreate(db, '2 3');
}
