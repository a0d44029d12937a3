import { recordAudit } from '../audit/index.js';
import type { AuthenticatedKey } from '../auth/index.js';
import type { WriteDoor } from '../writes/unit.js';
import { hasBankData, type BankData } from './order.mapping.js';
import type { ShownOrder } from './order.repository.js';

/** Bank data in full only for a key with the permission `bank`. */
export const bankDataFor = (key: AuthenticatedKey): BankData => (key.permissions.has('bank') ? 'revealed' : 'masked');

/**
 * An unmasked read of bank data is recorded before the data leaves: one entry per read (per
 * chunk of the feed), naming the orders whose bank data it shows.
 */
export async function auditBankRead(writes: WriteDoor, keyId: string, bank: BankData, orders: readonly ShownOrder[]): Promise<void> {
  if (bank !== 'revealed') return;
  const ids = orders.filter(hasBankData).map((o) => String(o.order_id));
  if (ids.length > 0) await recordAudit(writes, { keyId, action: 'bank.read', resourceType: 'order', resourceIds: ids });
}
