import assert from 'node:assert/strict';
import { connect, createServer, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertBuilt, startServer, type ServerProcess } from '../helpers/cli.js';
import { httpRequest, parseRawResponse } from '../helpers/raw-http.js';
import { createTestDatabase, type TestDatabase, allBackends, leftOut } from '../helpers/test-store.js';

const BOOTSTRAP_KEY = 'og_e2e_bootstrap_key_0123456789abcdefghijklmnop';
const FIRST_KEY = /shown only this once:\n(og_[A-Za-z0-9_-]{54})\n/;

/** A request whose body is only half sent: the server holds it in flight until `finish()`. */
async function halfSentRequest(port: number, key: string): Promise<{ finish(): Promise<string>; socket: Socket }> {
  const body = '{"Identifiers":["nobody"]}';
  const socket = connect({ port, host: '127.0.0.1' });
  await new Promise<void>((r) => socket.once('connect', () => r()));
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  const closed = new Promise<void>((r) => socket.once('close', () => r()));
  socket.write(
    `POST /customer/ HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
  );
  return {
    socket,
    async finish() {
      socket.write(body.slice(10));
      // Unreferenced: a guard left running would keep the test process alive to its end.
      await Promise.race([closed, sleep(5000, undefined, { ref: false })]);
      return received;
    },
  };
}

const get = (server: ServerProcess, path: string, key?: string) =>
  httpRequest(`${server.url}${path}`, { headers: key ? { authorization: `Bearer ${key}` } : {} });

for (const backend of allBackends()) {
  describe(`ordergate serve over a real socket [${backend}]`, { skip: leftOut(backend) }, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    const start = async (env: Record<string, string> = {}, db = database): Promise<ServerProcess> => {
      const server = await startServer({ DATABASE_URL: db.url, ...env });
      servers.push(server);
      return server;
    };
    before(async () => {
      assertBuilt();
      database = await createTestDatabase(backend);
    });
    after(async () => {
      for (const s of servers) await s.kill();
      await database?.drop();
    });

    let firstKey = '';

    test('first start prints one key once to stderr; GET /customer/ answers []; SIGTERM finishes the request in flight and exits 0', async () => {
      const server = await start();
      firstKey = (await server.waitForStderr(FIRST_KEY))[1]!;
      await server.waitUntilReady();
      assert.equal(server.stderr().split(firstKey).length, 2, 'printed once');
      assert.ok(!server.stdout().includes(firstKey), 'not on stdout');
      const res = await get(server, '/customer/', firstKey);
      assert.equal(res.status, 200, res.body);
      assert.equal(res.body, '[]');
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      assert.equal((await get(server, '/customer/')).status, 401);

      const inFlight = await halfSentRequest(server.port, firstKey);
      await sleep(400); // the server has accepted the connection and read the headers
      server.child.kill('SIGTERM');
      await sleep(300);
      let refused = false;
      for (let i = 0; i < 20 && !refused; i++) {
        refused = await httpRequest(`${server.url}/health/live`).then(
          () => false,
          () => true,
        );
        if (!refused) await sleep(50);
      }
      assert.ok(refused, 'no new connections once shutting down');
      const answer = parseRawResponse(await inFlight.finish());
      assert.equal(answer.status, 200, 'the request in flight completes');
      assert.equal(answer.body, '[]');
      assert.equal(answer.headers.connection, 'close', 'the connection is not kept alive while shutting down');
      assert.equal(await server.exited, 0);
    });

    test('a second start prints no key; ORDERGATE_BOOTSTRAP_KEY is ignored once a key exists', async () => {
      assert.ok(firstKey, 'depends on the first start');
      const server = await start({ ORDERGATE_BOOTSTRAP_KEY: BOOTSTRAP_KEY });
      await server.waitUntilReady();
      assert.doesNotMatch(server.stderr(), /og_|ORDERGATE_BOOTSTRAP_KEY/);
      assert.equal((await get(server, '/customer/', firstKey)).status, 200);
      assert.equal((await get(server, '/customer/', BOOTSTRAP_KEY)).status, 401);
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
    });

    test('with ORDERGATE_BOOTSTRAP_KEY on a fresh store, that key is registered and not printed', async () => {
      const fresh = await createTestDatabase(backend);
      try {
        const server = await start({ ORDERGATE_BOOTSTRAP_KEY: BOOTSTRAP_KEY }, fresh);
        await server.waitUntilReady();
        assert.match(server.stderr(), /registered ORDERGATE_BOOTSTRAP_KEY as the first API key \(all,admin\)/);
        assert.ok(!server.stderr().includes(BOOTSTRAP_KEY) && !server.stdout().includes(BOOTSTRAP_KEY));
        const res = await get(server, '/customer/', BOOTSTRAP_KEY);
        assert.equal(res.status, 200);
        assert.equal(res.body, '[]');
        server.child.kill('SIGTERM');
        assert.equal(await server.exited, 0);
      } finally {
        await fresh.drop();
      }
    });
  });
}

describe('ordergate serve with WORKERS=2', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  before(() => {
    assertBuilt();
    dir = mkdtempSync(join(tmpdir(), 'ordergate-e2e-'));
  });
  after(async () => {
    await server?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  test('two worker processes answer on one port; SIGTERM stops both and exits 0', async () => {
    server = await startServer({
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      WORKERS: '2',
      LOG_LEVEL: 'info',
      ORDERGATE_BOOTSTRAP_KEY: BOOTSTRAP_KEY,
    });
    await server.waitUntilReady();
    const pids = new Set<number>();
    let requests = 0;
    for (let i = 0; i < 40 && pids.size < 2; i++) {
      requests++;
      const res = await httpRequest(`${server.url}/customer/?Identifiers=w${i}`, {
        headers: { authorization: `Bearer ${BOOTSTRAP_KEY}`, 'x-request-id': `workers-${i}` },
      });
      assert.equal(res.status, 200);
      await sleep(20);
      const line = server
        .stdout()
        .split('\n')
        .find((l) => l.includes(`"reqId":"workers-${i}"`) && l.includes('request completed'));
      if (line) pids.add((JSON.parse(line) as { pid: number }).pid);
    }
    assert.equal(pids.size, 2, `answered by ${[...pids].join(', ')}`);
    assert.ok(!pids.has(server.child.pid!), 'the primary does not serve');
    // Whichever worker a scrape lands on, /metrics counts the requests of both.
    for (let scrape = 0; scrape < 4; scrape++) {
      const metrics = await httpRequest(`${server.url}/metrics`);
      assert.equal(metrics.status, 200);
      const m = /^ordergate_http_requests_total\{method="GET",route="\/customer\/",status="200"\} (\d+)$/m.exec(metrics.body);
      assert.equal(Number(m?.[1]), requests, `scrape ${scrape}: ${m?.[0]}`);
    }
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    for (const pid of pids) assert.throws(() => process.kill(pid, 0), 'worker has exited');
  });

  test('a port already in use stops the start with exit code 1, with one worker or several', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const port = String((holder.address() as AddressInfo).port);
    try {
      const results = await Promise.all(
        ['1', '2'].map(async (workers) => {
          const s = await startServer({ DATABASE_URL: `sqlite:${join(dir, `inuse-${workers}.sqlite`)}`, WORKERS: workers, PORT: port });
          // A hang guard (a cold start on a busy machine takes seconds), unreferenced: once the start
          // ended, it must not keep the test process alive for its minute.
          const code = await Promise.race([s.exited, sleep(60_000, undefined, { ref: false }).then(() => 'still running')]);
          await s.kill();
          return { workers, code, stderr: s.stderr() };
        }),
      );
      for (const r of results) {
        assert.equal(r.code, 1, `WORKERS=${r.workers}: ${r.stderr}`);
        assert.match(
          r.stderr,
          new RegExp(
            `ordergate: port ${port} on 127\\.0\\.0\\.1 is in use \\(another ordergate or another server\\): stop it, or set PORT to a free port\\n`,
          ),
        );
      }
    } finally {
      holder.close();
    }
  });
});
