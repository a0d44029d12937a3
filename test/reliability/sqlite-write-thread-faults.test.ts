import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { createKey } from '../../src/auth/key.service.js';
import { loadConfig } from '../../src/config.js';
import { seedOrders } from '../../src/orders/order.seed.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import type { Store } from '../../src/store/store.js';
import { openTestWrites, leftOut } from '../helpers/test-store.js';
import { assertNoInternals } from '../helpers/wire-asserts.js';
import { confirmation } from '../orders/order-fixtures.js';

// Confirmations and custom-field values are written by the SQLite write thread (its own worker and
// writer connection, src/orders/write-thread.ts), not by the main thread's connection: these tests
// make the database file itself unwritable, so that the worker's connection meets the fault.

const ORDERS = 200;

/** This process's threads (Linux: /proc/self/task): the write thread is one of them while it runs. */
const threads = (): number => readdirSync('/proc/self/task').length;

interface Rig {
  app: FastifyInstance;
  store: Store;
  auth: Record<string, string>;
}

async function rig(file: string): Promise<Rig> {
  const url = `sqlite:${file}`;
  const store = openStore(url);
  await migrateToLatest(store);
  await seedOrders(openTestWrites(store), ORDERS);
  const { key } = await createKey(openTestWrites(store), 'write-thread-faults', 'all,admin');
  const app = await buildApp({ config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0', DATABASE_URL: url }), store });
  const r = { app, store, auth: { authorization: `Bearer ${key}` } };
  assert.equal(
    (await r.app.inject({ method: 'PUT', url: '/customfields/1', headers: r.auth, payload: { Label: 'Note', FieldType: 'Text' } }))
      .statusCode,
    201,
  );
  return r;
}

async function close(r: Rig | undefined): Promise<void> {
  await r?.app.close();
  await r?.store.close();
}

const confirm = (r: Rig, orderId: number, note = 'n'): Promise<LightMyRequestResponse> =>
  r.app.inject({
    method: 'POST',
    url: `/orders/${orderId}/confirm`,
    headers: r.auth,
    payload: confirmation({ ExternalCustomerId: `wt-${orderId}`, Note: note }),
  });
const putField = (r: Rig, customer: string, value: string): Promise<LightMyRequestResponse> =>
  r.app.inject({ method: 'PUT', url: `/customer/${customer}/customfields/1`, headers: r.auth, payload: { Value: value } });
const patchFields = (r: Rig, customer: string, value: string): Promise<LightMyRequestResponse> =>
  r.app.inject({ method: 'PATCH', url: `/customer/${customer}/customfields/`, headers: r.auth, payload: [{ Number: 1, Value: value }] });
const putCustomer = (r: Rig, id: string): Promise<LightMyRequestResponse> =>
  r.app.inject({ method: 'PUT', url: `/customer/${id}`, headers: r.auth, payload: { FirstName: `name of ${id}` } });

function assertUnavailable(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 503, res.body);
  assert.ok(res.headers['retry-after'], 'Retry-After is set');
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  const body = JSON.parse(res.body);
  assert.deepEqual(Object.keys(body), ['ResponseStatus']);
  assert.deepEqual(Object.keys(body.ResponseStatus), ['ErrorCode', 'Message', 'Errors']);
  assert.equal(body.ResponseStatus.ErrorCode, 'ServiceUnavailable');
  assertNoInternals(res.body);
}

async function orderStatus(r: Rig, orderId: number): Promise<string> {
  const res = await r.app.inject({ url: `/orders/${orderId}`, headers: r.auth });
  assert.equal(res.statusCode, 200, res.body);
  return JSON.parse(res.body).Status as string;
}

async function fieldValue(r: Rig, customer: string): Promise<string | null> {
  const res = await r.app.inject({ url: `/customer/${customer}/customfields/`, headers: r.auth });
  assert.equal(res.statusCode, 200, res.body);
  return (JSON.parse(res.body) as Array<{ Number: number; Value: string | null }>).find((f) => f.Number === 1)?.Value ?? null;
}

async function customerExists(r: Rig, externalId: string): Promise<boolean> {
  const res = await r.app.inject({ url: `/customer/?Identifiers=${externalId}`, headers: r.auth });
  assert.equal(res.statusCode, 200, res.body);
  return (JSON.parse(res.body) as unknown[]).length > 0;
}

/** Checks that refused writes left nothing behind: the order still open, no customer made, the old value in place. */
async function assertNothingWritten(r: Rig, refusedOrders: number[], refusedFields: Map<string, string | null>): Promise<void> {
  for (const id of refusedOrders) {
    assert.equal(await orderStatus(r, id), 'Open', `order ${id} was refused but changed`);
    assert.equal(await customerExists(r, `wt-${id}`), false, `order ${id} was refused but its customer exists`);
  }
  for (const [customer, value] of refusedFields)
    assert.equal(await fieldValue(r, customer), value, `${customer}: a refused value was written`);
}

describe('SQLite write thread: the database file made immutable under the running service [sqlite]', { skip: leftOut('sqlite') }, () => {
  let dir: string;
  let file: string;
  let r: Rig | undefined;
  const files = (): string[] => [file, `${file}-wal`].filter((f) => existsSync(f));
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ordergate-immutable-'));
    file = join(dir, 'store.sqlite');
    r = await rig(file);
  });
  after(async () => {
    // Never leave an immutable file behind (rm could not remove it).
    if (file && files().length > 0) execFileSync('chattr', ['-i', ...files()]);
    await close(r);
    rmSync(dir, { recursive: true, force: true });
  });

  test('confirmations and custom-field writes answer 503 while the file cannot be written, change nothing, and work again after', async () => {
    const rig = r!;
    assert.equal((await putCustomer(rig, 'wt-cf-0')).statusCode, 201);
    assert.equal((await putField(rig, 'wt-cf-0', 'before')).statusCode, 200);
    assert.equal((await confirm(rig, 1)).statusCode, 200);

    // root ignores file modes (chmod 0444 changes nothing for it); the immutable attribute stops
    // root too: every write to the open database and WAL files fails (EPERM, SQLITE_IOERR_WRITE).
    execFileSync('chattr', ['+i', ...files()]);
    const refusedOrders: number[] = [];
    const refusedFields = new Map<string, string | null>([['wt-cf-0', 'before']]);
    try {
      // Concurrent, so that several writes share a group commit in the write thread.
      const answers = await Promise.all([
        ...[2, 3, 4, 5, 6].map((id) => confirm(rig, id)),
        putField(rig, 'wt-cf-0', 'during-put'),
        patchFields(rig, 'wt-cf-0', 'during-patch'),
        putCustomer(rig, 'wt-cust-during'),
      ]);
      for (const res of answers) assertUnavailable(res);
      refusedOrders.push(2, 3, 4, 5, 6);
      // Again, one at a time: the write thread is still there and still answers.
      assertUnavailable(await confirm(rig, 7));
      refusedOrders.push(7);
      assertUnavailable(await putField(rig, 'wt-cf-0', 'during-2'));
      // Reads and liveness go on.
      assert.equal(await orderStatus(rig, 1), 'Confirmed');
      assert.equal(await fieldValue(rig, 'wt-cf-0'), 'before');
      assert.equal((await rig.app.inject('/health/live')).statusCode, 200);
    } finally {
      execFileSync('chattr', ['-i', ...files()]);
    }

    await assertNothingWritten(rig, refusedOrders, refusedFields);
    assert.equal(await customerExists(rig, 'wt-cust-during'), false);
    // The condition is gone: the same requests succeed now, without a restart.
    for (const id of refusedOrders) assert.equal((await confirm(rig, id)).statusCode, 200, `order ${id} after`);
    for (const id of refusedOrders) assert.equal(await orderStatus(rig, id), 'Confirmed');
    const put = await putField(rig, 'wt-cf-0', 'after');
    assert.equal(put.statusCode, 200, put.body);
    assert.equal(await fieldValue(rig, 'wt-cf-0'), 'after');
    assert.equal((await putCustomer(rig, 'wt-cust-after')).statusCode, 201);
  });
  test('a write thread that starts while the file cannot be written (after its idle stop): 503, and it works again after', async () => {
    const rig = r!;
    assert.equal((await putCustomer(rig, 'wt-cf-1')).statusCode, 201);
    assert.equal((await putField(rig, 'wt-cf-1', 'before')).statusCode, 200);
    // The write thread stops after 5 idle seconds; the next write starts a new one, which opens
    // its own connection to the file. Its stop shows as one thread of this process fewer.
    const withThread = threads();
    for (const until = Date.now() + 60_000; threads() >= withThread; await sleep(100)) {
      if (Date.now() > until) throw new Error(`the write thread did not stop (${withThread} threads)`);
    }
    execFileSync('chattr', ['+i', ...files()]);
    try {
      const answers = await Promise.all([confirm(rig, 20), confirm(rig, 21), putField(rig, 'wt-cf-1', 'during')]);
      for (const res of answers) assertUnavailable(res);
      assertUnavailable(await confirm(rig, 22));
      assert.equal((await rig.app.inject('/health/live')).statusCode, 200);
    } finally {
      execFileSync('chattr', ['-i', ...files()]);
    }
    await assertNothingWritten(rig, [20, 21, 22], new Map([['wt-cf-1', 'before']]));
    for (const id of [20, 21, 22]) {
      const res = await confirm(rig, id);
      assert.equal(res.statusCode, 200, `order ${id} after: ${res.body}`);
    }
    assert.equal((await putField(rig, 'wt-cf-1', 'after')).statusCode, 200);
    assert.equal(await fieldValue(rig, 'wt-cf-1'), 'after');
  });
  test('a service started while the file cannot be written: reads work, writes 503, and writes work again after without a restart', async () => {
    const rig = r!;
    execFileSync('chattr', ['+i', ...files()]);
    let late: Rig | undefined;
    try {
      // A second service on the same file, started now: its writer connection is opened while
      // the file cannot be written, which SQLite answers with a read-only connection.
      const store = openStore(`sqlite:${file}`);
      const app = await buildApp({
        config: loadConfig({ LOG_LEVEL: 'silent', RATE_LIMIT_PER_SECOND: '0', DATABASE_URL: `sqlite:${file}` }),
        store,
      });
      late = { app, store, auth: rig.auth };
      assertUnavailable(await putCustomer(late, 'late-during'));
      assertUnavailable(await putCustomer(late, 'late-during'));
      assertUnavailable(await confirm(late, 30));
      assert.equal(await fieldValue(late, 'wt-cf-0'), 'after');
    } finally {
      execFileSync('chattr', ['-i', ...files()]);
    }
    try {
      assert.equal(await customerExists(late, 'late-during'), false);
      const upsert = await putCustomer(late, 'late-after');
      assert.equal(upsert.statusCode, 201, upsert.body);
      const confirmed = await confirm(late, 30);
      assert.equal(confirmed.statusCode, 200, confirmed.body);
      assert.equal(await orderStatus(late, 30), 'Confirmed');
    } finally {
      await close(late);
    }
  });
});

describe('SQLite write thread on a full disk [sqlite]', () => {
  let mountPoint: string;
  let r: Rig | undefined;
  before(async () => {
    mountPoint = mkdtempSync(join(tmpdir(), 'ordergate-wt-disk-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mountPoint]);
    mkdirSync(join(mountPoint, 'db'));
    r = await rig(join(mountPoint, 'db', 'store.sqlite'));
  });
  after(async () => {
    await close(r);
    execFileSync('umount', ['-l', mountPoint]);
    rmSync(mountPoint, { recursive: true, force: true });
  });

  test('confirmations and custom-field writes answer 503 on a full disk, change nothing, and work again once space is freed', async (t) => {
    const rig = r!;
    const customers = Array.from({ length: 40 }, (_, i) => `wt-full-${i}`);
    for (const c of customers) assert.equal((await putCustomer(rig, c)).statusCode, 201);
    assert.equal((await confirm(rig, 1)).statusCode, 200);
    assert.equal((await putField(rig, customers[0]!, 'before')).statusCode, 200);

    const filler = join(mountPoint, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(16 * 1024 * 1024));
    } catch {
      // ENOSPC: the filler takes whatever space was left, which is the point.
    }
    // Large values, so that every write needs new pages; writes that still fit in free pages may pass.
    const big = 'x'.repeat(1000);
    const refusedOrders: number[] = [];
    const refusedFields = new Map<string, string | null>();
    const acked = new Map<string, string>();
    for (let i = 0; i < customers.length; i++) {
      const customer = customers[i]!;
      const known = acked.get(customer) ?? (i === 0 ? 'before' : null);
      const [c, f] = await Promise.all([confirm(rig, 2 + i, big), putField(rig, customer, `${big.slice(10)}${i}`)]);
      if (c.statusCode === 503) {
        assertUnavailable(c);
        refusedOrders.push(2 + i);
      } else assert.equal(c.statusCode, 200, c.body);
      if (f.statusCode === 503) {
        assertUnavailable(f);
        refusedFields.set(customer, known);
      } else {
        assert.equal(f.statusCode, 200, f.body);
        acked.set(customer, `${big.slice(10)}${i}`);
      }
    }
    t.diagnostic(
      `refused on the full disk: ${refusedOrders.length} of ${customers.length} confirmations, ${refusedFields.size} of ${customers.length} custom-field writes`,
    );
    assert.ok(refusedOrders.length > 0, 'some confirmations were refused on the full disk');
    assert.ok(refusedFields.size > 0, 'some custom-field writes were refused on the full disk');
    assert.equal((await rig.app.inject('/health/live')).statusCode, 200);
    await assertNothingWritten(rig, refusedOrders, refusedFields);
    for (const [customer, value] of acked) assert.equal(await fieldValue(rig, customer), value, `${customer}: acknowledged value`);

    rmSync(filler, { force: true });
    for (const id of refusedOrders) {
      const res = await confirm(rig, id, big);
      assert.equal(res.statusCode, 200, `order ${id} once space is freed: ${res.body}`);
    }
    const again = await putField(rig, customers[0]!, 'after');
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(await fieldValue(rig, customers[0]!), 'after');
  });
});
