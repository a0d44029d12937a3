import { textsByShape } from '../store/statement-texts.js';

/** `insert into events (…) values (?, ?, ?, ?, ?, ?), …` for n rows: written once per count, reused by the store's prepared statements. */
export const insertEventsSql = textsByShape(
  (n: number) =>
    `insert into events (sequence, event_id, type, occurred_at, customer_id, order_id, data) values (?, ?, ?, ?, ?, ?, ?)${', (?, ?, ?, ?, ?, ?, ?)'.repeat(n - 1)}`,
);
