import { recordAudit } from '../audit/index.js';
import { findCustomer } from '../customers/index.js';
import { customFieldReader } from '../customfields/index.js';
import { customerNotFound } from '../errors.js';
import { customerEvents } from '../events/index.js';
import { ordersOfCustomer, toFeedItem, type BankData, type ShownOrder } from '../orders/index.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/unit.js';
import { eraseCustomerWrite, type ErasureAnswer } from './privacy.erasure.js';

/** Tables an erasure rewrites: their freed space is scrubbed after it. */
const ERASED_TABLES = [
  'customers',
  'custom_field_values',
  'orders',
  'order_payments',
  'order_refunds',
  'events',
  'customer_words',
  'order_words',
] as const;

/** Who asks, for the audit log and the bank-data permission. */
export interface Requester {
  readonly keyId: string;
  readonly bank: BankData;
  /** Records the unmasked read of these orders' bank data (before it leaves). */
  readonly auditBankRead: (orders: readonly ShownOrder[]) => Promise<void>;
}

/** Everything held about a customer (Art. 15/20): the customer, its custom fields, orders and events. */
export async function exportCustomerData(store: Store, writes: WriteDoor, customerId: string, who: Requester) {
  const customer = await findCustomer(store.reader, customerId);
  if (!customer) throw customerNotFound(customerId);
  await recordAudit(writes, { keyId: who.keyId, action: 'customer.export', resourceType: 'customer', resourceIds: [customerId] });
  const { fields } = await customFieldReader()(store, customerId);
  const orders = await ordersOfCustomer(store, customerId);
  await who.auditBankRead(orders);
  const events = await customerEvents(store.reader, customerId);
  return {
    Customer: customer,
    CustomFields: fields,
    Orders: orders.map((o) => toFeedItem(o, who.bank)),
    Events: events,
  };
}

/**
 * Erases a customer (one transaction through the door, see privacy.erasure.ts), then scrubs the space the
 * old values occupied (SQLite: checkpoint and truncate the log; PostgreSQL: vacuum). The erasure
 * has committed either way: a failed scrub is logged, and the next erasure or vacuum completes it.
 */
export async function eraseCustomer(
  store: Store,
  writes: WriteDoor,
  customerId: string,
  keyId: string,
  warn: (message: string) => void,
): Promise<ErasureAnswer> {
  const answer = await writes.run(eraseCustomerWrite, { customerId, keyId, now: Date.now() });
  try {
    await store.scrubFreedSpace(ERASED_TABLES);
  } catch (err) {
    warn(`scrubbing the store after an erasure failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  return answer;
}
