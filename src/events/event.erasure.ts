import type { Unit } from '../writes/unit.js';
import { decodeEventData, encodeEventData } from './event.json.js';
import { eventRepository } from './event.repository.js';

/**
 * What the module that owns an event type does to its payload when the customer is erased: the
 * payload (as stored, decoded) without the personal data, or the same object when the type is not
 * the module's.
 */
export type EventDataEraser = (type: string, data: Record<string, unknown>) => Record<string, unknown>;

/**
 * Scrubs the payloads of a customer's events, each asked of every module's eraser; answers whether
 * anything changed.
 */
export async function scrubCustomerEvents(unit: Unit, customerId: string, erasers: readonly EventDataEraser[]): Promise<boolean> {
  let changed = false;
  for (const e of await eventRepository.ofCustomer(unit.db, customerId)) {
    let data = decodeEventData(e.data) as Record<string, unknown>;
    for (const erase of erasers) data = erase(e.type, data);
    const text = encodeEventData(data);
    if (text === e.data) continue;
    await eventRepository.replaceData(unit.db, e.sequence, text);
    changed = true;
  }
  return changed;
}
