import type { Unit } from '../writes/unit.js';
import { decodeEventData, encodeEventData } from './event-json.js';
import { eventRepository } from './event.repository.js';

/**
 * What the module that owns an event type does to its payload when the customer is erased: the
 * payload (as stored, decoded) without the personal data, or the same object when the type is not
 * the module's.
 */
export type EventDataEraser = (type: string, data: Record<string, unknown>) => Record<string, unknown>;

/** Data prefixes asked of the store at once: a customer with more orders is read in turns. */
const PREFIXES_PER_READ = 100;

/**
 * Scrubs the payloads of a customer's events, each asked of every module's eraser; answers whether
 * anything changed. `ownerless`: the starts of the data texts of events written before the data
 * became the customer's (an order's before its confirmation), which carry no customer id.
 */
export async function scrubCustomerEvents(
  unit: Unit,
  customerId: string,
  erasers: readonly EventDataEraser[],
  ownerless: readonly string[] = [],
): Promise<boolean> {
  const events = await eventRepository.ofCustomer(unit.db, customerId);
  for (let i = 0; i < ownerless.length; i += PREFIXES_PER_READ)
    events.push(...(await eventRepository.ownerlessStartingWith(unit.db, ownerless.slice(i, i + PREFIXES_PER_READ))));
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
