import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { BACKENDS, createTestDatabase, type TestDatabase } from '../helpers/test-store.js';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';

const KEY = 'og_crash_test_key_0123456789abcdefghijklmnopqrstuvwxyz';
const CONCURRENCY = 32;

interface Ack {
  id: string;
  token: string;
}

/** PUTs customers from CONCURRENCY loops; kills the server once `killAfterAcks` were acknowledged (or after 20 s). */
async function writeUntilKilled(port: number, kill: () => void, killAfterAcks: number): Promise<Ack[]> {
  const acks: Ack[] = [];
  let n = 0;
  let dead = false;
  const die = (): void => {
    if (dead) return;
    dead = true;
    kill();
  };
  const cap = setTimeout(die, 20_000);
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (!dead) {
        const i = n++;
        const id = `crash-${i}`;
        const token = `t${i}-${Date.now()}`;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/customer/${id}`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
            body: JSON.stringify({ FirstName: token, LastName: token, City: 'Crashburg' }),
          });
          // 201: each id is new, so each acknowledged PUT created its customer.
          if (res.status === 201) {
            acks.push({ id, token });
            // Killed while the other loops still have writes in flight.
            if (acks.length === killAfterAcks) die();
          } else await res.arrayBuffer();
        } catch {
          return; // connection refused or reset: the server is gone
        }
      }
    }),
  );
  clearTimeout(cap);
  return acks;
}

for (const backend of BACKENDS) {
  describe(`SIGKILL during customer writes [${backend}]`, () => {
    let database: TestDatabase;
    let server: ServerProcess | undefined;
    before(async () => {
      database = await createTestDatabase(backend);
    });
    after(async () => {
      await server?.stop('SIGKILL');
      await database.drop();
    });

    test('every acknowledged write is there after a restart, and no row is half-written', async () => {
      const env = { DATABASE_URL: database.url, ORDERGATE_BOOTSTRAP_KEY: KEY };
      server = await startServer(env);
      const first = server;
      const acks = await writeUntilKilled(first.port, () => first.child.kill('SIGKILL'), 300);
      assert.equal(await first.exited, 'SIGKILL');
      assert.ok(acks.length >= 300, `enough writes were acknowledged before the kill (${acks.length})`);

      server = await startServer({ ...env, PORT: String(first.port) });
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
