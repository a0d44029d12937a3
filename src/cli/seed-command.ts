import { seedCustomers } from '../customers/index.js';
import { seedOrders } from '../orders/index.js';
import { parseCommandArgs, UsageError, type RunCommand } from './command.js';
import { progressBar } from './progress.js';
import { withStore } from './with-store.js';

/** The N of `--customers N` / `--orders N` / `--confirmed N`: absent is 0, given it must be a whole number of at least 1. */
function count(value: string | undefined, flag: string): number {
  if (value === undefined) return 0;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} takes a whole number of at least 1, got '${value}'`);
  return Number(value);
}

export const seedCommand: RunCommand = async (args, config) => {
  const { values } = parseCommandArgs({
    args,
    options: { customers: { type: 'string' }, orders: { type: 'string' }, confirmed: { type: 'string' } },
  });
  const customers = count(values.customers, '--customers');
  const orders = count(values.orders, '--orders');
  const confirmed = count(values.confirmed, '--confirmed');
  if (customers === 0 && orders === 0) throw new UsageError('give --customers N and/or --orders N');
  if (confirmed > orders) throw new UsageError(`--confirmed ${confirmed} is more than the --orders seeded (${orders})`);
  // The demo customers confirm the orders: they are seeded (or found) in the same run.
  if (confirmed > 0 && customers === 0) throw new UsageError('--confirmed needs --customers N: the demo customers who confirm the orders');
  await withStore(
    config,
    async (store, writes) => {
      if (customers > 0) {
        const bar = progressBar('customers', customers);
        const started = Date.now();
        const added = await seedCustomers(writes, customers, bar.tick);
        bar.stop();
        process.stdout.write(
          `customers: ${added} added (${customers - added} existed) in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
        );
      }
      if (orders > 0) {
        const bar = progressBar('orders', orders);
        const added = await seedOrders(writes, orders, bar.tick, { confirmed, customers });
        bar.stop();
        process.stdout.write(`orders: ${added} added (${orders - added} existed)\n`);
      }
      await store.settleTextIndexes();
    },
    { create: true },
  );
};
