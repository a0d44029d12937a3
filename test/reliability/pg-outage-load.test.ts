import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { assertBuilt, startServer, type ServerProcess } from '../helpers/cli.js';
import { PG_TEST_URL, createTestDatabase, type TestDatabase, leftOut } from '../helpers/test-store.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';
import { assertNoInternals } from '../helpers/wire-asserts.js';
import { confirmation } from '../orders/order-fixtures.js';
import { PROCESS_KEY, prepareOrders } from '../orders/server-processes.js';

// PostgreSQL goes away while a served process is under concurrent load (customer upserts,
// confirmations, custom-field writes and reads over real HTTP), then comes back. PostgreSQL itself
// is shared and stays up: its stop is played the way clients see one. First the server ends the
// sessions of this database (pg_terminate_backend: the FATAL 57P01 a fast shutdown sends), then a
// TCP proxy in front of it drops every connection and refuses new ones; the restore accepts again
// on the same port.

/** Ends every session on the database `name` but this one, as a shutting-down server does. */
async function terminateSessions(name: string): Promise<number> {
  const admin = new pg.Client({ connectionString: PG_TEST_URL });
  await admin.connect();
  try {
    const { rows } = await admin.query(
      'select count(*) filter (where pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
      [name],
    );
    return Number(rows[0].n);
  } finally {
    await admin.end();
  }
}

const ORDERS = 5_000;
const PER_KIND = 4;
const CF_CUSTOMERS_PER_WRITER = 5;

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

type Phase = 'before' | 'cut' | 'after';

async function call(port: number, method: string, path: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${PROCESS_KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The success status (200 unless said), or 503 with Retry-After and the ResponseStatus body; anything else fails the test. */
function check(what: string, a: Answer, success = 200): boolean {
  if (a.status === success) return true;
  assert.equal(a.status, 503, `${what}: ${a.status} ${a.text}`);
  assert.ok(a.headers.get('retry-after'), `${what}: 503 without Retry-After`);
  assert.equal(a.headers.get('content-type'), 'application/json; charset=utf-8', what);
  const body = JSON.parse(a.text);
  assert.deepEqual(Object.keys(body), ['ResponseStatus'], what);
  assert.deepEqual(Object.keys(body.ResponseStatus), ['ErrorCode', 'Message', 'Errors'], what);
  assert.equal(body.ResponseStatus.ErrorCode, 'ServiceUnavailable', what);
  assertNoInternals(a.text);
  return false;
}

describe('PostgreSQL stopped and started again under concurrent load [postgres]', { skip: leftOut('postgres') }, () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let server: ServerProcess | undefined;
  before(async () => {
    assertBuilt();
    database = await createTestDatabase('postgres');
    await prepareOrders(database.url, ORDERS);
    const target = new URL(database.url);
    proxy = new TcpProxy(target.hostname, Number(target.port || 5432));
    target.port = String(await proxy.start());
    server = await startServer({
      DATABASE_URL: target.toString(),
      ORDERGATE_BOOTSTRAP_KEY: PROCESS_KEY,
      DATABASE_POOL_SIZE: '8',
      RATE_LIMIT_PER_SECOND: '0',
    });
    await server.waitUntilReady();
  });
  after(async () => {
    await server?.kill();
    await proxy?.close();
    await database?.drop();
  });

  test('every answer is 200 or 503 with Retry-After, not ready while down, recovers without a restart, every acknowledged write kept', async (t) => {
    const port = server!.port;
    assert.equal((await call(port, 'PUT', '/customfields/1', { Label: 'Load', FieldType: 'Text' })).status, 201);
    const cfCustomers = Array.from({ length: PER_KIND * CF_CUSTOMERS_PER_WRITER }, (_, i) => `pgl-cf-${i}`);
    for (const c of cfCustomers) assert.equal((await call(port, 'PUT', `/customer/${c}`, { FirstName: 'cf' })).status, 201);

    let phase: Phase = 'before';
    let stop = false;
    const counts = new Map<string, number>();
    const count = (key: string): void => void counts.set(key, (counts.get(key) ?? 0) + 1);
    const record = (kind: string, ok: boolean): void => count(`${kind} ${phase} ${ok ? 200 : 503}`);

    // Acknowledged writes, checked against the store at the end.
    const upserts = new Map<string, string>(); // customer id -> FirstName
    const confirmations = new Map<number, string>(); // order id -> customer id
    // Custom-field values per customer: the last acknowledged one, and those sent after it that
    // got a 503 (a commit can land while its answer is lost to the cut: 503 means "not known").
    const fields = new Map<string, { acked: string | undefined; unsure: string[] }>(
      cfCustomers.map((c) => [c, { acked: undefined, unsure: [] }]),
    );
    let nextOrder = 1;

    const loop = async (body: (n: number) => Promise<void>): Promise<void> => {
      for (let n = 0; !stop; n++) {
        await body(n);
        // A refused request comes back at once; a short pause keeps the loop from spinning.
        if (phase === 'cut') await sleep(20);
      }
    };
    const workers = [
      ...Array.from({ length: PER_KIND }, (_, w) =>
        loop(async (n) => {
          const id = `pgl-u-${w}-${n}`;
          const name = `U ${w} ${n} ${phase}`;
          const ok = check(`PUT /customer/${id}`, await call(port, 'PUT', `/customer/${id}`, { FirstName: name }), 201);
          record('upsert', ok);
          if (ok) upserts.set(id, name);
        }),
      ),
      ...Array.from({ length: PER_KIND }, () =>
        loop(async () => {
          const orderId = nextOrder++;
          assert.ok(orderId <= ORDERS, 'enough seeded orders');
          const a = await call(port, 'POST', `/orders/${orderId}/confirm`, confirmation({ ExternalCustomerId: `pgl-o-${orderId}` }));
          const ok = check(`confirm ${orderId}`, a);
          record('confirm', ok);
          if (ok) confirmations.set(orderId, JSON.parse(a.text).CustomerId as string);
        }),
      ),
      ...Array.from({ length: PER_KIND }, (_, w) =>
        loop(async (n) => {
          const customer = cfCustomers[w * CF_CUSTOMERS_PER_WRITER + (n % CF_CUSTOMERS_PER_WRITER)]!;
          const value = `${customer} #${n} ${phase}`;
          const ok = check(
            `PUT custom field of ${customer}`,
            await call(port, 'PUT', `/customer/${customer}/customfields/1`, { Value: value }),
          );
          record('customfield', ok);
          const f = fields.get(customer)!;
          if (ok) fields.set(customer, { acked: value, unsure: [] });
          else f.unsure.push(value);
        }),
      ),
      ...Array.from({ length: PER_KIND }, (_, w) =>
        loop(async (n) => {
          const path = [
            `/customer/?Identifiers=${cfCustomers[n % cfCustomers.length]}`,
            `/orders/${1 + ((n * 7 + w) % ORDERS)}`,
            `/customer/${cfCustomers[(n + w) % cfCustomers.length]}/customfields/`,
          ][n % 3]!;
          record('read', check(`GET ${path}`, await call(port, 'GET', path)));
        }),
      ),
    ];
    const running = Promise.all(workers);
    let failure: unknown;
    const readyStatuses: number[] = [];
    let terminated: number;
    running.catch((err: unknown) => {
      failure ??= err;
      stop = true;
    });

    // Each phase lasts until what it is to show has happened (a loaded machine answers later), with
    // a generous guard against a hang.
    const KINDS = ['upsert', 'confirm', 'customfield', 'read'];
    const until = async (done: () => boolean, what: string): Promise<void> => {
      for (const end = Date.now() + 60_000; !done() && !stop; await sleep(50)) {
        if (Date.now() > end) throw new Error(`not within 60 s: ${what}`);
      }
    };
    try {
      await until(() => upserts.size > 0 && confirmations.size > 0, 'writes acknowledged before the cut');
      assert.ok(upserts.size > 0 && confirmations.size > 0, 'writes acknowledged before the cut');

      phase = 'cut';
      terminated = await terminateSessions(new URL(database.url).pathname.slice(1));
      await proxy.cut();
      const readyDuringCut = readyStatuses;
      for (let i = 0; i < 12 && !stop; i++) {
        readyDuringCut.push((await call(port, 'GET', '/health/ready')).status);
        assert.equal((await call(port, 'GET', '/health/live')).status, 200, 'live while the store is down');
        await sleep(200);
      }
      await until(() => KINDS.every((k) => (counts.get(`${k} cut 503`) ?? 0) > 0), 'a 503 of every kind during the cut');
      assert.ok(readyDuringCut.length > 0);
      assert.ok(
        readyDuringCut.every((s) => s !== 200),
        `/health/ready during the cut: ${readyDuringCut.join(',')}`,
      );

      await proxy.restore();
      const restoredAt = Date.now();
      let ready = false;
      while (!ready && !stop && Date.now() - restoredAt < 10_000) {
        ready = (await call(port, 'GET', '/health/ready')).status === 200;
        if (!ready) await sleep(100);
      }
      assert.ok(ready, 'ready again within 10 s of the restore');
      phase = 'after';
      await until(() => KINDS.every((k) => (counts.get(`${k} after 200`) ?? 0) > 0), 'a 200 of every kind after the restore');
    } finally {
      stop = true;
      await running.catch(() => undefined);
      // A wrong answer stops the load; it is the cause of whatever failed after it.
      // eslint-disable-next-line no-unsafe-finally, @typescript-eslint/only-throw-error -- rethrows what the load caught, whatever it was
      if (failure) throw failure;
    }

    const summary = [...counts]
      .sort()
      .map(([k, v]) => `${k}: ${v}`)
      .join(', ');
    t.diagnostic(
      `answers by kind, phase and status: ${summary}; /health/ready during the cut: ${readyStatuses.join(',')}; sessions terminated: ${terminated}`,
    );
    assert.ok(terminated > 0, 'the service had sessions open when PostgreSQL went away');
    for (const kind of KINDS) {
      assert.ok((counts.get(`${kind} cut 503`) ?? 0) > 0, `${kind}: 503 during the cut (${summary})`);
      assert.ok((counts.get(`${kind} after 200`) ?? 0) > 0, `${kind}: 200 after the restore (${summary})`);
    }
    assert.equal(server!.child.exitCode, null, 'the same process served throughout');

    // Every acknowledged write is in the store, with the acknowledged value.
    const ids = [...upserts.keys(), ...[...confirmations.keys()].map((o) => `pgl-o-${o}`)];
    const found = new Map<string, { CustomerId: string; ExternalId: string | null; FirstName: string | null }>();
    for (let i = 0; i < ids.length; i += 200) {
      const a = await call(port, 'POST', '/customer/', { Identifiers: ids.slice(i, i + 200) });
      assert.equal(a.status, 200, a.text);
      for (const c of JSON.parse(a.text)) {
        found.set(c.CustomerId, c);
        if (c.ExternalId) found.set(c.ExternalId, c);
      }
    }
    for (const [id, name] of upserts) assert.equal(found.get(id)?.FirstName, name, `customer ${id}`);
    for (const [orderId, customerId] of confirmations) {
      const a = await call(port, 'GET', `/orders/${orderId}`);
      assert.equal(a.status, 200, a.text);
      const order = JSON.parse(a.text);
      assert.equal(order.Status, 'Confirmed', `order ${orderId}`);
      assert.equal(order.CustomerId, customerId, `order ${orderId}`);
      assert.equal(found.get(`pgl-o-${orderId}`)?.CustomerId, customerId, `customer of order ${orderId}`);
    }
    for (const [customer, f] of fields) {
      const a = await call(port, 'GET', `/customer/${customer}/customfields/`);
      assert.equal(a.status, 200, a.text);
      const value = (JSON.parse(a.text) as Array<{ Number: number; Value: string | null }>).find((x) => x.Number === 1)?.Value ?? undefined;
      assert.ok(
        value === f.acked || f.unsure.includes(value as string),
        `${customer}: '${value}', acknowledged '${f.acked}', unsure ${JSON.stringify(f.unsure)}`,
      );
    }
  });
});
