import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { KillSwitch } from '../helpers/kill-switch.js';
import { isServerGone } from '../helpers/server-gone.js';
import { watchWrites, type WriteWatch } from '../helpers/write-in-flight.js';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';

const KEY = 'og_cf_crash_key_0123456789abcdefghijklmnopqrstuvwxyz';
const WRITERS = 32;
const ROUNDS = 4;

interface Writer {
  readonly customer: string;
  /** Writes both fields in one PATCH (all or nothing) rather than one field with PUT. */
  readonly patch: boolean;
  lastAcked: string | undefined;
  inFlight: string | undefined;
}

async function call(port: number, method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

/**
 * Each writer writes its own customer's values one after the other until the server dies. The kill
 * comes once `killAfterAcks` writes were acknowledged (not after a fixed time: a loaded machine may
 * take long for the first ones), with all writers still sending, while a transaction is open in the
 * store.
 */
async function writeUntilKilled(
  port: number,
  writers: Writer[],
  watch: WriteWatch,
  kill: () => void,
  killAfterAcks: number,
): Promise<{ acked: number; midWrite: boolean }> {
  let acked = 0;
  const killer = new KillSwitch(kill, watch, 60_000);
  await Promise.all(
    writers.map(async (w) => {
      for (let n = 0; !killer.killed; n++) {
        const token = `${w.customer}:${n}`;
        w.inFlight = token;
        try {
          const res = w.patch
            ? await call(port, 'PATCH', `/customer/${w.customer}/customfields/`, [
                { Number: 1, Value: token },
                { Number: 2, Value: token },
              ])
            : await call(port, 'PUT', `/customer/${w.customer}/customfields/1`, { Value: token });
          await res.arrayBuffer();
          if (res.status !== 200 && res.status !== 204) throw new Error(`write answered ${res.status}`);
          w.lastAcked = token;
          w.inFlight = undefined;
          if (++acked >= killAfterAcks) killer.trigger();
        } catch (err) {
          if (!isServerGone(err)) throw err;
          return; // the server is gone; the write in flight may or may not have committed
        }
      }
    }),
  );
  await killer.done();
  return { acked, midWrite: killer.midWrite };
}

for (const backend of allBackends()) {
  describe(`SIGKILL during custom-field writes [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    before(async () => {
      database = await createTestDatabase(backend);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database.drop();
    });

    test('every acknowledged value is there after a restart, and a PATCH of two fields is never half applied', async (t) => {
      const env = { DATABASE_URL: database.url, ORDERGATE_BOOTSTRAP_KEY: KEY };
      server = await startServer(env);
      const first = server;
      for (const n of [1, 2])
        assert.equal((await call(first.port, 'PUT', `/customfields/${n}`, { Label: `F${n}`, FieldType: 'Text' })).status, 201);
      const writers: Writer[] = Array.from({ length: WRITERS }, (_, i) => ({
        customer: `cfc-${i}`,
        patch: i % 2 === 1,
        lastAcked: undefined,
        inFlight: undefined,
      }));
      for (const w of writers) assert.equal((await call(first.port, 'PUT', `/customer/${w.customer}`, { FirstName: 'Crash' })).status, 201);

      // A kill that finds the store busy with the server's own bookkeeping while every write was
      // already answered proves nothing: that round is a restart like any other, and the next one
      // tries again, until a kill lands with writes in flight.
      let inFlight = 0;
      for (let round = 1; round <= ROUNDS && inFlight === 0; round++) {
        if (round > 1) server = await startServer({ ...env, PORT: String(first.port) });
        const current: ServerProcess = server;
        const watch = await watchWrites(database);
        const { acked, midWrite } = await writeUntilKilled(current.port, writers, watch, () => current.child.kill('SIGKILL'), 200).finally(
          () => watch.close(),
        );
        assert.equal(await current.exited, 'SIGKILL');
        assert.ok(acked >= 200, `round ${round}: the kill came after 200 acknowledged writes, not from the hang guard (${acked})`);
        inFlight = midWrite ? writers.filter((w) => w.inFlight !== undefined).length : 0;
        t.diagnostic(`round ${round}: writes in flight at the kill: ${inFlight} of ${WRITERS}, a transaction open: ${midWrite}`);
      }
      assert.ok(inFlight > 0, `one of ${ROUNDS} kills found writes in flight and a transaction open in the store`);

      server = await startServer({ ...env, PORT: String(first.port) });
      for (const w of writers) {
        const res = await call(server.port, 'GET', `/customer/${w.customer}/customfields/`);
        assert.equal(res.status, 200);
        const values = new Map(((await res.json()) as Array<{ Number: number; Value: string | null }>).map((f) => [f.Number, f.Value]));
        const one = values.get(1) ?? undefined;
        const allowed = [w.lastAcked, w.inFlight];
        assert.ok(
          allowed.includes(one ?? undefined),
          `${w.customer}: field 1 is '${one}', acknowledged '${w.lastAcked}', in flight '${w.inFlight}'`,
        );
        if (w.patch) assert.equal(values.get(2), values.get(1), `${w.customer}: both fields of one PATCH`);
        else assert.equal(values.get(2), null, `${w.customer}: field 2 was never written`);
      }
    });
  });
}
