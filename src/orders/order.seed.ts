import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { orderRepository } from './order.repository.js';

/** Order number of a seeded order n: `SEED-<n padded>`, so that seeding twice adds nothing. */
export const seedOrderNumber = (n: number): string => `SEED-${String(n).padStart(8, '0')}`;

const BATCH = 5000;
const ROWS_PER_INSERT = 1000;

/** Inserts seeded orders first..last that do not exist yet; answers how many were new. */
export const seedOrdersWrite = defineWrite('order.seed', async (unit, range: { first: number; last: number; createdAt: number }): Promise<number> => {
  let inserted = 0;
  for (let i = range.first; i <= range.last; i += ROWS_PER_INSERT) {
    const rows = [];
    for (let k = i; k <= Math.min(range.last, i + ROWS_PER_INSERT - 1); k++) rows.push({ order_number: seedOrderNumber(k), note: null, created_at: range.createdAt });
    const ids = await orderRepository.insertNew(unit.db, rows);
    for (const id of ids) unit.touch('order', String(id));
    inserted += ids.length;
  }
  return inserted;
});

/** Creates open orders 1..count (existing order numbers are skipped). Returns how many were new. */
export async function seedOrders(writes: WriteDoor, count: number, onProgress: (done: number) => void = () => undefined): Promise<number> {
  let inserted = 0;
  const createdAt = Date.now();
  for (let first = 1; first <= count; first += BATCH) {
    const last = Math.min(count, first + BATCH - 1);
    inserted += await writes.run(seedOrdersWrite, { first, last, createdAt });
    onProgress(last);
  }
  return inserted;
}
