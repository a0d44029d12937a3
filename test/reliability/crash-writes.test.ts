import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';
import { KillSwitch } from '../helpers/kill-switch.js';
import { isServerGone } from '../helpers/server-gone.js';
import { watchWrites, type WriteWatch } from '../helpers/write-in-flight.js';

const KEY = 'og_crash_test_key_0123456789abcdefghijklmnopqrstuvwxyz';
const CONCURRENCY = 32;
const ROUNDS = 4;

interface Ack {
  id: string;
  token: string;
}

/**
 * PUTs customers from CONCURRENCY loops; once `killAfterAcks` were acknowledged (or from a hang
 * guard), kills the server while a transaction is open in the store and the other loops still send.
 */
async function writeUntilKilled(
  port: number,
  watch: WriteWatch,
  kill: () => void,
  killAfterAcks: number,
  prefix: string,
): Promise<{ acks: Ack[]; sent: number; midWrite: boolean }> {
  const acks: Ack[] = [];
  let n = 0;
  const killer = new KillSwitch(kill, watch, 60_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!killer.killed) {
        const i = n++;
        const id = `${prefix}${i}`;
        const token = `t${i}-${Date.now()}`;
        let res: Response;
        try {
          res = await fetch(`http://127.0.0.1:${port}/customer/${id}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ FirstName: token, LastName: token, City: 'Crashburg' }),
          });
          await res.arrayBuffer();
        } catch (err) {
          if (isServerGone(err)) return;
          throw err;
        }
        assert.equal(res.status, 201, `PUT ${id}`); // each id is new: the PUT created its customer
        acks.push({ id, token });
        if (acks.length >= killAfterAcks) killer.trigger();
      }
    }),
  );
  await killer.done();
  return { acks, sent: n, midWrite: killer.midWrite };
}

for (const backend of allBackends()) {
  describe(`SIGKILL during customer writes [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    before(async () => {
      database = await createTestDatabase(backend);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database.drop();
    });

    test('every acknowledged write is there after a restart, and no row is half-written', async (t) => {
      const env = { DATABASE_URL: database.url, ORDERGATE_BOOTSTRAP_KEY: KEY };
      const acks: Ack[] = [];
      // A kill that finds the store busy with the server's own bookkeeping while every request of
      // the round was already answered proves nothing: such a round is a restart like any other, and
      // the next one tries again, until one kill lands with writes in flight.
      let caught = false;
      for (let round = 1; round <= ROUNDS && !caught; round++) {
        server = await startServer(server ? { ...env, PORT: String(server.port) } : env);
        const first = server;
        const watch = await watchWrites(database);
        const killAfter = acks.length + 300;
        const got = await writeUntilKilled(first.port, watch, () => first.child.kill('SIGKILL'), 300, `crash-r${round}-`).finally(() =>
          watch.close(),
        );
        assert.equal(await first.exited, 'SIGKILL');
        acks.push(...got.acks);
        assert.ok(
          acks.length >= killAfter,
          `round ${round}: the kill came after 300 acknowledged writes, not from the hang guard (${got.acks.length})`,
        );
        caught = got.midWrite && got.sent > got.acks.length;
        t.diagnostic(`round ${round}: ${got.sent} sent, ${got.acks.length} acknowledged, a transaction open: ${got.midWrite}`);
      }
      assert.ok(caught, `one of ${ROUNDS} kills found writes in flight and a transaction open in the store`);

      server = await startServer({ ...env, PORT: String(server!.port) });
      const res = await fetch(`http://127.0.0.1:${server.port}/customer/`, { headers: { authorization: `Bearer ${KEY}` } });
      assert.equal(res.status, 200);
      const customers = (await res.json()) as Array<{ CustomerId: string; FirstName: string; LastName: string; City: string }>;
      const byId = new Map(customers.map((c) => [c.CustomerId, c]));
      for (const ack of acks) {
        const c = byId.get(ack.id);
        assert.ok(c, `acknowledged ${ack.id} survived`);
        assert.equal(c.FirstName, ack.token);
      }
      for (const c of customers) {
        assert.equal(c.FirstName, c.LastName, `${c.CustomerId} is whole`);
        assert.equal(c.City, 'Crashburg');
      }
    });
  });
}
