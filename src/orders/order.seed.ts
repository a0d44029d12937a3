import type { Store } from '../store/store.js';

/** Order number of a seeded order n: `SEED-<n padded>`, so that seeding twice adds nothing. */
export const seedOrderNumber = (n: number): string => `SEED-${String(n).padStart(8, '0')}`;

const BATCH = 5000;
const ROWS_PER_INSERT = 1000;

/** Creates open orders 1..count (existing order numbers are skipped). Returns how many were new. */
export async function seedOrders(store: Store, count: number, onProgress: (done: number) => void = () => undefined): Promise<number> {
  let inserted = 0;
  const now = Date.now();
  for (let start = 1; start <= count; start += BATCH) {
    const end = Math.min(count, start + BATCH - 1);
    inserted += await store.writeTransaction(async (trx) => {
      let n = 0;
      for (let i = start; i <= end; i += ROWS_PER_INSERT) {
        const rows = [];
        for (let k = i; k <= Math.min(end, i + ROWS_PER_INSERT - 1); k++) {
          rows.push({ order_number: seedOrderNumber(k), status: 'Open' as const, note: null, customer_id: null, created_at: now });
        }
        const res = await trx.insertInto('orders').values(rows).onConflict((oc) => oc.column('order_number').doNothing()).executeTakeFirst();
        n += Number(res.numInsertedOrUpdatedRows ?? 0);
      }
      return n;
    });
    onProgress(end);
  }
  return inserted;
}
