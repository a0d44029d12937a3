import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parseWireDate } from '../../src/wire/dates.js';
import { createReplicatedDatabase } from '../helpers/replica.js';
import type { ServerProcess } from '../helpers/spawn-server.js';
import { seededRandom, type SeededRandom } from '../helpers/seeded-random.js';
import { allBackends, createTestDatabase, leftOut, type Backend, type TestDatabase } from '../helpers/test-store.js';
import { PROCESS_KEY, call, confirmOver, prepareOrders, serveOrders, type HttpAnswer } from './server-processes.js';

interface FeedOrder {
  OrderId: number;
  Status: string;
  CustomerId: string | null;
  ConfirmedAt: string | null;
  CancelledAt: string | null;
}

const WRITERS = 6;
const STEPS = 40;

/** One read of the feed after `watermark`: the orders and the next watermark (the header, as sent). */
async function readFeed(
  port: number,
  watermark: string | undefined,
  headers: Record<string, string> = {},
): Promise<{ orders: FeedOrder[]; watermark: string }> {
  const query = watermark === undefined ? '' : `?LastModifiedAfter=${encodeURIComponent(watermark)}`;
  const res = await fetch(`http://127.0.0.1:${port}/orders/${query}`, { headers: { authorization: `Bearer ${PROCESS_KEY}`, ...headers } });
  assert.equal(res.status, 200);
  const next = res.headers.get('x-sync-watermark');
  assert.ok(next, 'X-Sync-Watermark');
  return { orders: (await res.json()) as FeedOrder[], watermark: next };
}

/** The newest X-Write-Watermark the writers were answered (with a read replica): what a last read must include. */
class Written {
  #ms = 0;
  note(res: HttpAnswer): void {
    const header = res.headers.get('x-write-watermark');
    if (header !== null) this.#ms = Math.max(this.#ms, parseWireDate(header) ?? NaN);
  }
  /** X-Min-Watermark for a read that must see every write so far (none without a replica). */
  headers(): Record<string, string> {
    assert.ok(!Number.isNaN(this.#ms), 'X-Write-Watermark parses');
    return this.#ms === 0 ? {} : { 'X-Min-Watermark': `/Date(${this.#ms})/` };
  }
}

/** A writer: creates an order, then confirms or cancels it or an earlier one, on either process. */
async function writer(ports: readonly number[], n: number, created: number[], written: Written, random: SeededRandom): Promise<void> {
  for (let step = 0; step < STEPS; step++) {
    const port = ports[(n + step) % ports.length]!;
    const res = await call(port, 'POST', '/orders', {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    written.note(res);
    created.push(res.body.OrderId as number);
    const target = created[random.below(created.length)]!;
    const other = ports[(n + step + 1) % ports.length]!;
    if (step % 3 === 2) written.note(await call(other, 'POST', `/orders/${target}/cancel`));
    else written.note(await confirmOver(other, target, { ExternalCustomerId: `feed-${n}-${step}` }));
  }
}

/** Reads the replica answered, over both processes' metrics. */
async function replicaReads(ports: readonly number[]): Promise<number> {
  let sum = 0;
  for (const port of ports) {
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    sum += Number(/^ordergate_replica_reads_total\{outcome="replica"\} (\d+)/m.exec(text)?.[1] ?? 0);
  }
  return sum;
}

interface Variant {
  readonly title: string;
  readonly backend: Backend;
  /** Reads through a streaming replica of the PostgreSQL store (DATABASE_READ_URL). */
  readonly replica: boolean;
}

const VARIANTS: Variant[] = [
  ...allBackends().map((backend) => ({ title: backend, backend, replica: false })),
  { title: 'postgres, reads on a streaming replica', backend: 'postgres', replica: true },
];

// A reader that follows the feed only by its watermark ends with every order's final state, while
// writers on two server processes commit in an order their stamps' wall-clock times do not follow.
// With a replica, the feeds are read there: its replay follows commit order, so the promise holds.
for (const { title, backend, replica } of VARIANTS) {
  describe(`SearchOrders followed by watermark while two processes write [${title}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    before(async () => {
      const replicated = replica ? await createReplicatedDatabase() : undefined;
      database = replicated ?? (await createTestDatabase(backend));
      const env: Record<string, string> = replicated ? { DATABASE_READ_URL: replicated.readUrl } : {};
      await prepareOrders(database.url, 0);
      servers.push(await serveOrders(database.url, env)); // the first one registers the key
      servers.push(await serveOrders(database.url, env));
    });
    after(async () => {
      await Promise.all(servers.map((s) => s.stop('SIGKILL')));
      await database.drop();
    });

    test('the reader holds every order in its final state', async (t) => {
      // Which earlier order each step confirms or cancels: replayable from the seed the test prints.
      const random = seededRandom();
      random.report(t);
      const ports = servers.map((s) => s.port);
      const created: number[] = [];
      const written = new Written();
      const held = new Map<number, FeedOrder>();
      let watermark: string | undefined;
      let writing = true;
      let reads = 0;
      const reader = (async () => {
        for (let k = 0; writing; k++) {
          const page = await readFeed(ports[k % ports.length]!, watermark);
          for (const o of page.orders) held.set(o.OrderId, o);
          watermark = page.watermark;
          reads++;
        }
      })();
      // The event feed, followed the same way by the last Sequence seen: no event may appear later below it.
      const seen: Array<{ Id: string; Sequence: number }> = [];
      const readEvents = async (port: number, headers: Record<string, string> = {}): Promise<void> => {
        const page = (await call(port, 'GET', `/events/?After=${seen.at(-1)?.Sequence ?? 0}&Take=500`, undefined, headers))
          .body as typeof seen;
        seen.push(...page);
      };
      const eventReader = (async () => {
        for (let k = 0; writing; k++) await readEvents(ports[k % ports.length]!);
      })();
      await Promise.all(Array.from({ length: WRITERS }, (_, n) => writer(ports, n, created, written, random)));
      writing = false;
      await reader;
      await eventReader;
      // From here on, reads must include every write (a replica may still be replaying the last ones).
      const fresh = written.headers();
      for (let before = -1; seen.length !== before;) {
        before = seen.length;
        await readEvents(ports[0]!, fresh);
      }
      const allEvents = (await call(ports[1]!, 'GET', '/events/?Take=10000', undefined, fresh)).body as typeof seen;
      assert.ok(allEvents.length > WRITERS * STEPS, `events: ${allEvents.length}`);
      assert.deepEqual(
        seen.map((e) => e.Id),
        allEvents.map((e) => e.Id),
        'the event reader missed or repeated an event',
      );
      // One more read after the last commit: what a reader does next time it syncs.
      for (const o of (await readFeed(ports[0]!, watermark, fresh)).orders) held.set(o.OrderId, o);

      assert.ok(reads > 3, `the reader read while writers wrote (${reads} reads)`);
      if (replica) {
        assert.ok('X-Min-Watermark' in fresh, 'writes answer X-Write-Watermark');
        const answered = await replicaReads(ports);
        assert.ok(answered >= reads, `the replica answered the reads (${answered} of at least ${reads})`);
      }
      const final = (await call(ports[1]!, 'GET', '/orders/', undefined, fresh)).body as FeedOrder[];
      assert.equal(final.length, WRITERS * STEPS);
      assert.equal(held.size, final.length, 'every order reached the reader');
      for (const o of final) assert.deepEqual(held.get(o.OrderId), o, `order ${o.OrderId}`);
      assert.ok(final.some((o) => o.Status === 'Confirmed') && final.some((o) => o.Status === 'Cancelled'));
    });
  });
}
