import { parseArgs } from 'node:util';
import { customerRepository } from '../src/customers/customer.repository.js';
import { customFieldRepository } from '../src/customfields/customfield.repository.js';
import { orderRepository } from '../src/orders/order.repository.js';
import { openStore } from '../src/store/open-store.js';
import { handleOf, type DbHandle } from '../src/store/store.js';
import { postgresSql } from '../src/store/postgres/postgres-sql.js';
import { createDatabase, seed } from './lib/database.js';
import { n2 } from './lib/format.js';

// Usage: node --import tsx bench/pg-direct-reads.ts [--reads 5000] [--rounds 5] [--concurrency 10]
// The hot reads' statements on PostgreSQL in one process, without HTTP: each through the store's
// reader (its single statements on a pool connection directly, rows as arrays, postgres-sql.ts)
// and through a Kysely handle on the same pool, taking turns, `concurrency` at a time as the
// bench's connections send them. Prints this process's CPU per read of each way (the driver's and
// Kysely's work; PostgreSQL's own is the same statement either way).

const { values } = parseArgs({
  options: {
    reads: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '10' },
  },
});

const db = await createDatabase('postgres', 'pg_direct');
try {
  await seed(db, 2000, 200, 150);
  const store = openStore(db.url, { preparedStatements: true });
  // The same pool through Kysely: a handle whose executor is not the store's own.
  const viaKysely = handleOf(store.db.withoutPlugins(), postgresSql);
  const reads: Record<string, (h: DbHandle, i: number) => Promise<unknown>> = {
    'order by id': (h, i) => orderRepository.findShown(h, 1 + (i % 150)),
    'search by id': (h, i) => customerRepository.findByIdentifiers(h, [`C${String(1 + (i % 2000)).padStart(8, '0')}`], undefined),
    'search by 50 ids': (h, i) =>
      customerRepository.findByIdentifiers(
        h,
        Array.from({ length: 50 }, (_, k) => `C${String(1 + ((i + k * 37) % 2000)).padStart(8, '0')}`),
        undefined,
      ),
    'custom fields': (h, i) => customFieldRepository.readFields(h, `C${String(1 + (i % 2000)).padStart(8, '0')}`),
  };
  const ways: Record<string, DbHandle> = { direct: store.reader, kysely: viaKysely };
  const n = Number(values.reads);
  const concurrency = Number(values.concurrency);
  const perWay = new Map<string, number[]>();
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [read, run] of Object.entries(reads)) {
      for (const [way, handle] of round % 2 === 0 ? Object.entries(ways) : Object.entries(ways).reverse()) {
        const started = process.cpuUsage();
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < n) await run(handle, next++);
          }),
        );
        const used = process.cpuUsage(started);
        const key = `${read}: ${way}`;
        perWay.set(key, [...(perWay.get(key) ?? []), (used.user + used.system) / n]);
      }
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  for (const read of Object.keys(reads)) {
    const [d, k] = [median(perWay.get(`${read}: direct`)!), median(perWay.get(`${read}: kysely`)!)];
    process.stdout.write(
      `${read.padEnd(17)} direct ${n2(d).padStart(7)} µs CPU/read, through Kysely ${n2(k).padStart(7)} µs (×${n2(k / d)})\n`,
    );
  }
  await store.close();
} finally {
  await db.drop();
}
