import type { CustomerRow } from '../store/database.js';
import { chunks } from '../store/statement-texts.js';
import type { DbHandle, TextIndex } from '../store/store.js';
import { indexedWords } from '../store/text-words.js';

/**
 * The customers' text index (migration 011): each customer's folded words, written with every
 * write of the columns they come from, in the same transaction, so that a search never finds a
 * customer by a value it no longer holds (an erasure included).
 */
export const CUSTOMER_TEXT: TextIndex = { table: 'customer_words', key: 'customer_id', rows: 'customers' };

/** The columns a text search looks in (docs/customers.md, "Text search": CustomerId, ExternalId, FirstName, LastName, Company, PostalCode, City). */
export const WORD_COLUMNS = ['customer_id', 'external_id', 'first_name', 'last_name', 'company', 'postal_code', 'city'] as const;
export type WordSource = Pick<CustomerRow, (typeof WORD_COLUMNS)[number]>;

export const customerWords = (row: WordSource): string => indexedWords(WORD_COLUMNS.map((c) => row[c]));

/** Unchanged words are not written again: on SQLite each write replaces the row's FTS5 entry. */
const WRITE_ONE =
  'insert into customer_words (customer_id, words) values (?, ?)' +
  ' on conflict (customer_id) do update set words = excluded.words where customer_words.words <> excluded.words';

const ROWS_PER_STATEMENT = 500;

export const customerWordsRepository = {
  /** The words of one customer as written (the confirmation's hot path: a statement written once). */
  async writeOne(db: DbHandle, row: WordSource): Promise<void> {
    await db.run(WRITE_ONE, [row.customer_id, customerWords(row)]);
  },

  /** The words of many customers as written. */
  async write(db: DbHandle, rows: readonly WordSource[]): Promise<void> {
    for (const slice of chunks(rows, ROWS_PER_STATEMENT)) {
      await db
        .insertInto('customer_words')
        .values(slice.map((r) => ({ customer_id: r.customer_id, words: customerWords(r) })))
        .onConflict((oc) =>
          oc
            .column('customer_id')
            .doUpdateSet((eb) => ({ words: eb.ref('excluded.words') }))
            .where((eb) => eb('customer_words.words', '<>', eb.ref('excluded.words'))),
        )
        .execute();
    }
  },
};
