import assert from 'node:assert/strict';
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, type ServerProcess } from '../helpers/spawn-server.js';
import { createTestDatabase, PG_TEST_URL, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';
import { call, PROCESS_KEY } from '../orders/server-processes.js';
import { Receiver } from './receiver.js';

const EVENTS = 400;
const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_POLL_MS: '100', WEBHOOK_TIMEOUT_MS: '2000', WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1' };

const serve = (database: TestDatabase): Promise<ServerProcess> =>
  startServer({ ...database.env, ORDERGATE_BOOTSTRAP_KEY: PROCESS_KEY, ...ENV });

interface Run {
  readonly receiver: Receiver;
  /** Event ids that were being delivered by two dispatchers at the same time. */
  readonly overlaps: string[];
  /** The requests that arrived while answers were held and are not answered yet: event id → the sender's port. */
  readonly held: Map<string, number | undefined>;
  /** From now on answers wait until release(): the deliveries under way stay under way. */
  hold(): void;
  release(): void;
}

/** A receiver that answers after a few ms (or, while held, once released) and notes any event delivered twice at the same time. */
async function slowReceiver(): Promise<Run> {
  const receiver = await Receiver.start();
  const inFlight = new Set<string>();
  const waiting = new Map<string, number | undefined>();
  const overlaps: string[] = [];
  let held: Promise<void> | undefined;
  let release = (): void => undefined;
  receiver.answer = async (req, res) => {
    const id = String(req.headers['webhook-id']);
    if (inFlight.has(id)) overlaps.push(id);
    inFlight.add(id);
    res.on('close', () => inFlight.delete(id));
    if (held) {
      waiting.set(id, res.socket?.remotePort);
      res.on('close', () => waiting.delete(id));
      await held;
    }
    await sleep(5);
    res.end('ok');
  };
  return {
    receiver,
    overlaps,
    held: waiting,
    hold: () => void (held = new Promise((resolve) => (release = resolve))),
    release: () => {
      held = undefined;
      release();
    },
  };
}

/** The local ports of the process's IPv4 TCP sockets (Linux: its descriptors' socket inodes, looked up in /proc/net/tcp). */
function tcpPortsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const socket = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (socket) inodes.add(socket[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length > 9 && inodes.has(cols[9]!)) ports.add(parseInt(cols[1]!.split(':')[1]!, 16));
  }
  return ports;
}

/**
 * Registers an endpoint, makes EVENTS order.created events through the given servers, kills
 * `victim` once some deliveries arrived and while a delivery it sent is not yet answered, starts a
 * replacement, and waits until every event is recorded Delivered and has reached the receiver;
 * answers what it saw.
 */
async function killDuringDelivery(database: TestDatabase, servers: ServerProcess[], run: Run): Promise<{ duplicates: number }> {
  const ports = servers.map((s) => s.port);
  const created = await call(ports[0]!, 'POST', '/webhooks', { Url: run.receiver.url, Events: ['order.created'] });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  for (let i = 0; i < EVENTS; i += 50) {
    const replies = await Promise.all(
      Array.from({ length: Math.min(50, EVENTS - i) }, (_, k) => call(ports[(i + k) % ports.length]!, 'POST', '/orders', {})),
    );
    assert.ok(replies.every((r) => r.status === 201));
  }
  await run.receiver.waitFor(100, 60_000);
  const victim = servers[0]!;
  // Answers are held from here to the kill, so that the victim dies with a delivery sent and not
  // answered (leased, never recorded), seen at the receiver on a connection of the victim's.
  run.hold();
  const killBy = Date.now() + 30_000;
  const victimSending = (): boolean => {
    const ports = tcpPortsOf(victim.child.pid!);
    return [...run.held.values()].some((port) => port !== undefined && ports.has(port));
  };
  while (!victimSending()) {
    assert.ok(Date.now() < killBy, `no delivery of the victim's under way (${run.receiver.received.length} arrived)`);
    await sleep(20);
  }
  victim.child.kill('SIGKILL');
  assert.equal(await victim.exited, 'SIGKILL');
  run.release();
  servers[0] = await serve(database);
  const port = servers[0].port;

  const events: Array<{ Id: string }> = (await call(port, 'GET', `/events/?Types=order.created&Take=10000`)).body;
  assert.equal(events.length, EVENTS);
  const wanted = new Set(events.map((e) => e.Id));
  const deadline = Date.now() + 90_000;
  const settled = async (): Promise<Set<string>> => {
    const list: Array<{ EventId: string; Status: string }> = (await call(port, 'GET', `/webhooks/${created.body.Id}/deliveries?Take=1000`))
      .body;
    const pending = list.filter((d) => d.Status === 'Pending').length;
    return pending > 0 ? new Set() : new Set([...wanted].filter((id) => run.receiver.received.some((r) => r.headers['webhook-id'] === id)));
  };
  for (let done = await settled(); done.size < wanted.size; done = await settled()) {
    assert.ok(Date.now() < deadline, `not all delivered after 90 s: ${wanted.size - done.size} missing`);
    await sleep(250);
  }
  const received = run.receiver.received.map((r) => String(r.headers['webhook-id']));
  for (const id of wanted) assert.ok(received.includes(id), `${id} never reached the receiver`);
  assert.deepEqual(run.overlaps, [], 'an event was being delivered by two dispatchers at once');
  return { duplicates: received.length - new Set(received).size };
}

// Through PgBouncer: the two-instance case (leases with FOR UPDATE SKIP LOCKED across processes).
for (const backend of allBackends(true)) {
  for (const instances of backend === 'pgbouncer' ? [2] : [1, 2]) {
    describe(`webhook delivery of ${EVENTS} events, an instance of ${instances} killed [${backend}]`, { skip: leftOut(backend) }, () => {
      let database: TestDatabase;
      let run: Run;
      const servers: ServerProcess[] = [];
      before(async () => {
        database = await createTestDatabase(backend, PG_TEST_URL, { migrated: true });
        run = await slowReceiver();
        for (let i = 0; i < instances; i++) servers.push(await serve(database));
      });
      after(async () => {
        for (const s of servers) await s.stop('SIGKILL');
        await run.receiver.close();
        await database.drop();
      });

      test('after the restart every event reaches the receiver at least once, none lost, never twice at once', async (t) => {
        const { duplicates } = await killDuringDelivery(database, servers, run);
        t.diagnostic(
          `${run.receiver.received.length} deliveries of ${EVENTS} events: ${duplicates} duplicates (attempts the killed instance had made but not recorded)`,
        );
      });
    });
  }
}
