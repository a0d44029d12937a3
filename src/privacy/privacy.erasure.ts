import { recordAuditWrite } from '../audit/index.js';
import { eraseCustomerRow, erasedCustomerEventData, lockCustomerToErase } from '../customers/index.js';
import { eraseCustomFieldValuesOf } from '../customfields/index.js';
import { customerNotFound } from '../errors.js';
import { scrubCustomerEvents, type EventDataEraser } from '../events/index.js';
import { eraseOrdersOf, erasedOrderEventData } from '../orders/index.js';
import { defineWrite } from '../writes/unit.js';

export interface ErasureAnswer {
  readonly CustomerId: string;
  /** Epoch ms. */
  readonly ErasedAt: number;
}

/** Each module that builds event payloads removes the personal data from its own. */
const EVENT_DATA_ERASERS: readonly EventDataEraser[] = [erasedCustomerEventData, erasedOrderEventData];

/**
 * Erases a customer's personal data in one transaction, asking each module that holds some to
 * forget the customer: its custom-field values, the personal fields of its orders, of its events'
 * payloads and of its own row. Accounting fields stay. The customer's row is locked first, so a
 * confirmation racing the erasure either lands before it (and is erased) or after it (new data).
 * The customer and its changed orders get a new stamp and `customer.erased` is emitted, so every
 * feed shows the erasure. Finding nothing left to erase, it answers the earlier erasure's time
 * and changes nothing (erasing again is idempotent).
 */
export const eraseCustomerWrite = defineWrite(
  'customer.erase',
  async (unit, input: { customerId: string; keyId: string; now: number }): Promise<ErasureAnswer> => {
    const { customerId } = input;
    const customer = await lockCustomerToErase(unit, customerId);
    if (!customer) throw customerNotFound(customerId);
    await recordAuditWrite.run(unit, { keyId: input.keyId, action: 'customer.erase', resourceType: 'customer', resourceIds: [customerId] });
    const values = await eraseCustomFieldValuesOf(unit, customerId);
    const orders = await eraseOrdersOf(unit, customerId);
    // An order's events from before its confirmation hold its note but name no customer.
    const events = await scrubCustomerEvents(unit, customerId, EVENT_DATA_ERASERS, orders.orderIds);
    if (!customer.holdsPersonalData && values === 0 && !orders.changed && !events && customer.erasedAt !== null)
      return { CustomerId: customerId, ErasedAt: customer.erasedAt };
    await eraseCustomerRow(unit, customerId, input.now);
    unit.emit({ type: 'customer.erased', customerId });
    return { CustomerId: customerId, ErasedAt: input.now };
  },
);

export const privacyWrites = [eraseCustomerWrite];
