import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { PREPARED_STATEMENTS_OFF } from '../../src/store/prepared-statements-off.js';
import { confirmation } from '../orders/order-fixtures.js';
import { call, PROCESS_KEY, type HttpAnswer } from '../orders/server-processes.js';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';
import { BACKENDS_WITH_PGBOUNCER, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';

const CLIENTS = 8;

const answers = async (port: number): Promise<boolean> => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/health/live`)).ok;
  } catch {
    return false;
  }
};
const ROUNDS = 3;

// The most common PostgreSQL deployment: DATABASE_URL at PgBouncer in transaction mode and no other
// database setting, so prepared statements start on (their default) and must be given up on the way.
if (BACKENDS_WITH_PGBOUNCER.includes('pgbouncer')) {
  describe('serve behind PgBouncer with nothing but DATABASE_URL, WORKERS=2 [pgbouncer]', () => {
    let database: TestDatabase;
    let server: ServerProcess;
    before(async () => {
      database = await createTestDatabase('pgbouncer');
      server = await startServer({
        DATABASE_URL: database.url,
        // Empty is unset: whatever the test run's environment holds, the service sees only DATABASE_URL.
        DATABASE_DIRECT_URL: '',
        DATABASE_READ_URL: '',
        DATABASE_PREPARED_STATEMENTS: '',
        WORKERS: '2',
        ORDERGATE_BOOTSTRAP_KEY: PROCESS_KEY,
      });
      // Two workers migrating and starting through PgBouncer on a busy machine may take longer than
      // startServer waits: the clients start once one answers (a hang guard, not a speed limit).
      for (let i = 0; i < 1200 && !(await answers(server.port)); i++) await sleep(100);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database?.drop();
    });

    /** Every answer of one client's round, by what it did. */
    async function round(client: number, n: number): Promise<Array<[string, HttpAnswer]>> {
      const { port } = server;
      const answers: Array<[string, HttpAnswer]> = [];
      const step = async (what: string, answer: Promise<HttpAnswer>): Promise<HttpAnswer> => {
        const a = await answer;
        answers.push([what, a]);
        return a;
      };
      const customerId = `pool-${client}-${n}`;
      const field = client + 1;
      const created = await step('POST /orders', call(port, 'POST', '/orders', {}));
      const orderId = created.body?.OrderId as number;
      await step(
        'ConfirmOrder',
        call(
          port,
          'POST',
          `/orders/${orderId}/confirm`,
          confirmation({ ExternalCustomerId: customerId, OrderNumber: `POOL-${client}-${n}` }),
        ),
      );
      await step('PUT /customer', call(port, 'PUT', `/customer/${customerId}`, { FirstName: `F${n}`, LastName: 'Pool' }));
      await step('PUT /customfields', call(port, 'PUT', `/customfields/${field}`, { Label: `Field ${field}`, FieldType: 'Text' }));
      await step('PUT custom field value', call(port, 'PUT', `/customer/${customerId}/customfields/${field}`, { Value: `v${n}` }));
      await step('GET custom fields', call(port, 'GET', `/customer/${customerId}/customfields/`));
      await step('SearchCustomers', call(port, 'GET', `/customer/?Identifiers=${customerId}`));
      await step(
        'SearchCustomers (sync)',
        call(port, 'GET', `/customer/?LastModifiedAfter=${encodeURIComponent(new Date(0).toISOString())}`),
      );
      await step('SearchOrders', call(port, 'POST', '/orders/search', { OrderIds: [orderId] }));
      await step('GET /orders/{id}', call(port, 'GET', `/orders/${orderId}`));
      return answers;
    }

    test('concurrent clients write and read with no 5xx, and each process says once that it stopped naming statements', async () => {
      const answers: Array<[string, HttpAnswer]> = [];
      for (let n = 0; n < ROUNDS; n++) {
        for (const r of await Promise.all(Array.from({ length: CLIENTS }, (_, c) => round(c, n)))) answers.push(...r);
      }
      const failed = answers.filter(([, a]) => a.status >= 500).map(([what, a]) => `${what}: ${a.status} ${JSON.stringify(a.body)}`);
      assert.deepEqual(failed, []);
      // Not only no 5xx: each write did what it was asked.
      const statuses = new Map<string, Set<number>>();
      for (const [what, a] of answers) statuses.set(what, (statuses.get(what) ?? new Set()).add(a.status));
      assert.deepEqual(statuses.get('POST /orders'), new Set([201]));
      assert.deepEqual(statuses.get('ConfirmOrder'), new Set([200]));
      assert.deepEqual(statuses.get('PUT custom field value'), new Set([200]));
      const fields = answers.filter(([what]) => what === 'GET custom fields').map(([, a]) => a.body as Array<{ Value: unknown }>);
      assert.ok(
        fields.every((f) => f.length > 0 && f.some((x) => typeof x.Value === 'string')),
        JSON.stringify(fields),
      );
      // Once every round is over, the sync feed holds two customers per round: the one its confirmation
      // names by ExternalCustomerId, and the one it puts by id.
      const synced = await call(server.port, 'GET', `/customer/?LastModifiedAfter=${encodeURIComponent(new Date(0).toISOString())}`);
      assert.equal(synced.status, 200);
      assert.equal((synced.body as unknown[]).length, 2 * CLIENTS * ROUNDS);
      // Said at warn by each serving process that met it, once (a PgBouncer that keeps prepared statements, 1.21 and later, gives it no cause).
      const warnings = server
        .stdout()
        .split('\n')
        .filter((line) => line.includes(PREPARED_STATEMENTS_OFF))
        .map((line) => JSON.parse(line) as { level: number; pid: number });
      assert.ok(
        warnings.every((w) => w.level === 40),
        JSON.stringify(warnings),
      );
      assert.equal(new Set(warnings.map((w) => w.pid)).size, warnings.length, JSON.stringify(warnings));
      assert.ok(warnings.length <= 2, JSON.stringify(warnings));
    });
  });
}
