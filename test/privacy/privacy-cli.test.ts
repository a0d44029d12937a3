import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { IBAN, MASKED_IBAN, confirmation } from '../orders/order-fixtures.js';

for (const backend of allBackends()) {
  describe(`ordergate customers export-data / erase [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let store: Store;
    let app: FastifyInstance;
    let key: string;
    // The commands run in one thread of this process: what they do with their arguments and the store, without a node process each.
    let thread: CliThread;
    const env = (): Record<string, string> => ({ DATABASE_URL: database.url });
    const inject = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(payload ? { payload } : {}) });

    before(async () => {
      assertBuilt();
      thread = new CliThread();
      database = await createTestDatabase(backend);
      store = openStore(database.url, { poolSize: 2 });
      await migrateToLatest(store);
      app = await buildApp({ config: loadConfig({ ...env(), LOG_LEVEL: 'silent' }), store });
      key = (await createKey(app.writes, 'ops', 'all,admin')).key;
    });
    after(async () => {
      await thread?.close();
      await app?.close();
      await store?.close();
      await database?.drop();
    });

    test('export-data prints the JSON of everything held (bank data only with the flag, audited); erase needs --yes, then erases', async () => {
      const orderId = (await inject('POST', '/orders', {})).json().OrderId as number;
      const confirmed = await inject('POST', `/orders/${orderId}/confirm`, confirmation({ ExternalCustomerId: 'cli-privacy' }));
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      const customerId: string = confirmed.json().CustomerId;

      const masked = await thread.cli(['customers', 'export-data', customerId], env());
      assert.equal(masked.code, 0, masked.stderr);
      const data = JSON.parse(masked.stdout);
      assert.deepEqual(Object.keys(data), ['Customer', 'CustomFields', 'Orders', 'Events']);
      assert.equal(data.Orders[0].Confirmation.CustomerIban, MASKED_IBAN);
      const full = JSON.parse((await thread.cli(['customers', 'export-data', customerId, '--include-bank-data'], env())).stdout);
      assert.equal(full.Orders[0].Confirmation.CustomerIban, IBAN);

      const refused = await thread.cli(['customers', 'erase', customerId], env());
      assert.equal(refused.code, 2);
      assert.match(refused.stderr, /cannot be undone.*--yes/);
      assert.equal((await inject('GET', `/orders/${orderId}`)).json().Confirmation.CustomerFirstName, 'Erika', 'nothing changed');

      const erased = await thread.cli(['customers', 'erase', customerId, '--yes'], env());
      assert.equal(erased.code, 0, erased.stderr);
      assert.match(erased.stdout, new RegExp(`^erased ${customerId} at \\d{4}-`));
      assert.equal((await inject('GET', `/orders/${orderId}`)).json().Confirmation.CustomerFirstName, null);

      const unknown = await thread.cli(['customers', 'erase', 'no-such-customer', '--yes'], env());
      assert.equal(unknown.code, 1);
      assert.match(unknown.stderr, /not found/);
      assert.doesNotMatch(unknown.stderr, /usage:/);
      assert.equal((await thread.cli(['customers', 'export-data'], env())).code, 2);

      const audit = (await thread.cli(['audit', 'list'], env())).stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split(' ').slice(2, 4).join(' '));
      assert.deepEqual(audit, ['cli customer.export', 'cli customer.export', 'cli bank.read', 'cli customer.erase']);
    });
  });
}
