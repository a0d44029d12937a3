/**
 * Order statements written once by hand (run with StoreSql.run: `?` placeholders) for the hot
 * paths: the confirmation's statements, the lookup by id and the stamp of every order write. The
 * stamp's text depends on how many ids it binds, so it is kept per count.
 */

export const FIND_ORDER = 'select * from orders where order_id = ?';

export const MARK_CONFIRMED =
  "update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?" +
  " where order_id = ? and status = 'Open' returning order_number";

/** Most ids one stamp statement binds (the repository cuts longer lists). */
export const IDS_PER_TOUCH = 500;

const touchTexts = new Map<number, string>();

/** `update orders set modified_at = ? where order_id in (?, …)` for n ids (1 ≤ n ≤ IDS_PER_TOUCH). */
export function touchSql(n: number): string {
  let text = touchTexts.get(n);
  if (text === undefined) {
    text = `update orders set modified_at = ? where order_id in (?${', ?'.repeat(n - 1)})`;
    touchTexts.set(n, text);
  }
  return text;
}
