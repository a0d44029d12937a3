const insertTexts = new Map<number, string>();

/** `insert into events (…) values (?, ?, ?, ?, ?, ?), …` for n rows: written once per count, reused by the store's statement cache. */
export function insertEventsSql(n: number): string {
  let text = insertTexts.get(n);
  if (text === undefined) {
    text = `insert into events (sequence, event_id, type, occurred_at, customer_id, data) values ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?)').join(', ')}`;
    insertTexts.set(n, text);
  }
  return text;
}
