import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe } from 'node:test';
import type { ControlledTransaction } from 'kysely';
import type { Database } from '../../src/store/database.js';
import type { DbHandle, Store } from '../../src/store/store.js';
import { writeRegistry } from '../../src/write-registry.js';
import { GroupCommit, type Work } from '../../src/writes/group-commit.js';
import { customerRepository } from '../../src/customers/customer.repository.js';
import { allBackends, createTestStore, leftOut, type Backend } from './test-store.js';

/** What a repository test gets: a migrated store of its own and the write door's group commit. */
export interface StoreSuite {
  readonly backend: Backend;
  readonly store: Store;
  /** Runs work as a unit of the write door: a savepoint in a group-commit transaction, stamped last. */
  write<T>(work: Work<T>): Promise<T>;
}

/**
 * A suite per backend over a real, migrated store (closed and dropped after it): repositories below
 * HTTP. `pgbouncer`: through PgBouncer too (BACKENDS_WITH_PGBOUNCER), a suite of the pooled subset.
 */
export function describeEachStore(
  name: string,
  suite: (s: () => StoreSuite, backend: Backend) => void,
  options: { pgbouncer?: boolean } = {},
): void {
  for (const backend of allBackends(options.pgbouncer)) {
    describe(`${name} [${backend}]`, { skip: leftOut(backend) }, () => {
      let current: (StoreSuite & { close(): Promise<void> }) | undefined;
      before(async () => {
        const { store, close } = await createTestStore(backend);
        const commits = new GroupCommit(store, writeRegistry);
        current = { backend, store, write: (work) => commits.run(work), close };
      });
      after(async () => current?.close());
      suite(() => {
        if (!current) throw new Error('store not ready');
        return current;
      }, backend);
    });
  }
}

/** Writes a customer with no data through the door, for rows that reference one; returns its id. */
export async function createCustomer(
  s: StoreSuite,
  id = `c-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`,
): Promise<string> {
  await s.write(async (unit) => {
    await customerRepository.upsertByExternalId(unit.db, id, null, {}, Date.now());
    unit.touch('customer', id);
  });
  return id;
}

/** A transaction on a connection of its own (PostgreSQL's pool), left open until the test ends it: a lock held by another session. */
export const holdTransaction = async (store: Store): Promise<DbHandle<ControlledTransaction<Database>>> =>
  store.handle(await store.db.startTransaction().execute());

/** Whether a promise is still pending after `ms`: a statement waiting for a lock. */
export async function stillWaiting(p: Promise<unknown>, ms = 300): Promise<boolean> {
  const waiting = Symbol('waiting');
  const first = await Promise.race([
    p.then(
      () => undefined,
      () => undefined,
    ),
    sleep(ms).then(() => waiting),
  ]);
  return first === waiting;
}
