import type { OrderPaymentRow, OrderRefundRow } from '../store/database.js';
import type { Unit } from '../writes/unit.js';
import { orderLifeRepository } from './order-life.repository.js';

/**
 * The columns of an order's payments and refunds that hold personal data: an erasure sets them to
 * null. The records themselves stay (accounting): amount, type, reason and dates.
 */
export const PERSONAL_PAYMENT_COLUMNS = ['name', 'reference_number'] as const satisfies ReadonlyArray<keyof OrderPaymentRow>;
export const PERSONAL_REFUND_COLUMNS = ['reference_number'] as const satisfies ReadonlyArray<keyof OrderRefundRow>;

/** Scrubs the personal data of the payments and refunds of the customer's orders; answers whether anything changed. */
export async function eraseRecordsOf(unit: Unit, customerId: string): Promise<boolean> {
  const orderIds = await orderLifeRepository.ordersWithPersonalRecords(unit.db, customerId);
  if (orderIds.length === 0) return false;
  await orderLifeRepository.erasePersonal(unit.db, orderIds);
  for (const id of orderIds) unit.touch('order', String(id));
  return true;
}
