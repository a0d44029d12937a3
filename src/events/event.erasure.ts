import type { Unit } from '../writes/unit.js';
import { decodeEventData, encodeEventData } from './event.json.js';
import { eventRepository } from './event.repository.js';

/**
 * What the module that owns an event type does to its payload when the customer is erased: the
 * payload (as stored, decoded) without the personal data, or the same object when the type is not
 * the module's.
 */
export type EventDataEraser = (type: string, data: Record<string, unknown>) => Record<string, unknown>;

/** Orders asked of the store at once: a customer with more orders is read in turns. */
const ORDERS_PER_READ = 500;

/**
 * Scrubs the payloads of a customer's events, each asked of every module's eraser; answers whether
 * anything changed. `orderIds`: the customer's orders, whose events from before the data became the
 * customer's (before the order's confirmation) carry no customer id.
 */
export async function scrubCustomerEvents(
  unit: Unit,
  customerId: string,
  erasers: readonly EventDataEraser[],
  orderIds: readonly number[] = [],
): Promise<boolean> {
  const events = await eventRepository.ofCustomer(unit.db, customerId);
  for (let i = 0; i < orderIds.length; i += ORDERS_PER_READ)
    events.push(...(await eventRepository.ownerlessOfOrders(unit.db, orderIds.slice(i, i + ORDERS_PER_READ))));
  let changed = false;
  for (const e of events) {
    let data = decodeEventData(e.data) as Record<string, unknown>;
    for (const erase of erasers) data = erase(e.type, data);
    const text = encodeEventData(data);
    if (text === e.data) continue;
    await eventRepository.replaceData(unit.db, e.sequence, text);
    changed = true;
  }
  return changed;
}
