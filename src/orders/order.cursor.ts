import { decodeCursor, encodeCursor } from '../wire/sync-cursor.js';
import type { FieldRule } from '../wire/request-schema.js';

/** A place in the order feed's sync order (the repository's OrderPosition; declared here so that the request schema can check cursors without importing the repository). */
export interface OrderPosition {
  readonly modifiedAt: number;
  readonly orderId: number;
}

/** The X-Sync-Cursor of a page of the order feed: its last order's place in the sync order (the customers' cursor form). */
export const encodeOrderCursor = (p: OrderPosition): string => encodeCursor({ modifiedAt: p.modifiedAt, customerId: String(p.orderId) });

/** The position of an order cursor this service issued, or undefined when the text is not one. */
export function decodeOrderCursor(text: string): OrderPosition | undefined {
  const p = decodeCursor(text);
  if (!p || !/^[1-9][0-9]{0,15}$/.test(p.customerId)) return undefined;
  const orderId = Number(p.customerId);
  return Number.isSafeInteger(orderId) ? { modifiedAt: p.modifiedAt, orderId } : undefined;
}

/** The rule of SearchOrders' Cursor: empty, or a cursor this service issued for orders. */
export const orderCursorIssuedHere: FieldRule = (rules, field, value) => {
  if (typeof value === 'string' && value !== '' && !decodeOrderCursor(value)) {
    rules.fail(
      field,
      'Predicate',
      `'${field}' is not a cursor issued by this service (use the X-Sync-Cursor header of a previous answer).`,
    );
  }
};
