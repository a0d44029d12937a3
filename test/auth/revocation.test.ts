import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { createKey } from '../../src/auth/key.service.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { openStore } from '../../src/store/open-store.js';
import { assertBuilt, runCli, startServer, type ServerProcess } from '../helpers/cli.js';
import { BACKENDS, createTestDatabase, openTestWrites, type TestDatabase } from '../helpers/test-store.js';

// A revocation as real processes see it: two servers on one database, each with WORKERS=2, probed
// over kept and fresh connections while the key is revoked. Once any process has refused the key,
// no later probe may pass, and every probe sent a second after the revocation is refused.

interface Probe {
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly status: number;
  readonly via: string;
}

function get(server: ServerProcess, key: string, agent: Agent | false): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/customer/?Identifiers=none`, { headers: { authorization: `Bearer ${key}` }, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

async function listening(server: ServerProcess, count: number): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const pids = new Set(
      server
        .stdout()
        .split('\n')
        .filter((l) => l.includes('Server listening'))
        .map((l) => (JSON.parse(l) as { pid: number }).pid),
    );
    if (pids.size >= count) return;
    await sleep(50);
  }
  assert.fail(`${count} processes did not start listening: ${server.stderr()}`);
}

/**
 * Probes `key` on every server over kept connections (two per server, so that both workers hold
 * some) and fresh ones, until `stop(probes so far)` is true; returns every answer.
 */
async function probeWhile(servers: readonly ServerProcess[], key: string, stop: (probes: readonly Probe[]) => boolean): Promise<Probe[]> {
  const probes: Probe[] = [];
  const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: 2 }));
  const loop = async (server: ServerProcess, agent: Agent | false, via: string): Promise<void> => {
    while (!stop(probes)) {
      const sentAt = Date.now();
      const status = await get(server, key, agent);
      probes.push({ sentAt, answeredAt: Date.now(), status, via });
      await sleep(5);
    }
  };
  try {
    await Promise.all(
      servers.flatMap((s, i) => [
        loop(s, agents[i]!, `kept#${i}a`),
        loop(s, agents[i]!, `kept#${i}b`),
        loop(s, false, `fresh#${i}a`),
        loop(s, false, `fresh#${i}b`),
      ]),
    );
  } finally {
    for (const a of agents) a.destroy();
  }
  return probes;
}

/**
 * Probing goes on 1.5 s after the revocation, and on a slow machine until every way of probing has
 * sent one probe a second after it (at most 20 s): what is asserted of those probes needs them.
 */
function probedLongEnough(revokedAt: number, probes: readonly Probe[]): boolean {
  if (revokedAt === 0) return false;
  const now = Date.now();
  if (now > revokedAt + 20_000) return true;
  if (now <= revokedAt + 1500) return false;
  const vias = new Set(probes.map((p) => p.via));
  const lateVias = new Set(probes.filter((p) => p.sentAt >= revokedAt + 1000).map((p) => p.via));
  return lateVias.size >= vias.size;
}

function assertRefusedForGood(probes: readonly Probe[], revokedAt: number): void {
  const statuses = new Set(probes.map((p) => p.status));
  assert.deepEqual(
    [...statuses].filter((s) => s !== 200 && s !== 401),
    [],
    'only 200 and 401',
  );
  const firstRefusal = Math.min(...probes.filter((p) => p.status === 401).map((p) => p.answeredAt));
  assert.ok(Number.isFinite(firstRefusal), 'the key was refused');
  const acceptedLater = probes.filter((p) => p.status === 200 && p.sentAt > firstRefusal);
  assert.deepEqual(acceptedLater, [], `accepted after a refusal ${firstRefusal - revokedAt} ms after the revocation`);
  const late = probes.filter((p) => p.sentAt >= revokedAt + 1000);
  assert.ok(late.length >= 8, `${late.length} probes a second after the revocation`);
  assert.deepEqual(
    late.filter((p) => p.status !== 401),
    [],
    'every probe a second after the revocation is refused',
  );
  for (const via of new Set(probes.map((p) => p.via)))
    assert.ok(
      late.some((p) => p.via === via),
      `${via} probed after a second`,
    );
}

for (const backend of BACKENDS) {
  describe(`a revoked key is refused everywhere at once [${backend}]`, () => {
    let database: TestDatabase;
    const servers: ServerProcess[] = [];
    let admin: string;

    before(async () => {
      assertBuilt();
      database = await createTestDatabase(backend);
      const store = openStore(database.url, { poolSize: 2 });
      const writes = openTestWrites(store);
      try {
        await migrateToLatest(store);
        admin = (await createKey(writes, 'admin', 'all,admin')).key;
      } finally {
        await writes.close();
        await store.close();
      }
      for (let i = 0; i < 2; i++) {
        const server = await startServer({
          DATABASE_URL: database.url,
          WORKERS: '2',
          LOG_LEVEL: 'info',
          RATE_LIMIT_PER_SECOND: '0',
          AUTH_FAILURE_LIMIT: '0',
        });
        servers.push(server);
        await server.waitUntilReady(30_000);
        await listening(server, 2);
      }
    });
    after(async () => {
      for (const s of servers) await s.kill();
      await database?.drop();
    });

    /** A new key, trusted by every process already (probed until each server has answered it many times). */
    async function warmKey(name: string): Promise<string> {
      const created = await runCli(['keys', 'create', '--name', name], { DATABASE_URL: database.url });
      assert.equal(created.code, 0, created.stderr);
      const key = created.stdout.trimEnd().split('\n').pop()!;
      const until = Date.now() + 300;
      const warm = await probeWhile(servers, key, () => Date.now() > until);
      assert.deepEqual(new Set(warm.map((p) => p.status)), new Set([200]));
      return key;
    }

    test('revoked with `keys revoke` while both servers answer it', async () => {
      const key = await warmKey('victim-cli');
      let revokedAt = 0;
      const probing = probeWhile(servers, key, (probes) => probedLongEnough(revokedAt, probes));
      await sleep(100);
      const revoked = await runCli(['keys', 'revoke', key.slice(0, 12)], { DATABASE_URL: database.url });
      revokedAt = Date.now();
      assert.equal(revoked.code, 0, revoked.stderr);
      assertRefusedForGood(await probing, revokedAt);
    });

    test('revoked with POST /keys/{Id}/revoke while both servers answer it', async () => {
      const key = await warmKey('victim-http');
      let revokedAt = 0;
      const probing = probeWhile(servers, key, (probes) => probedLongEnough(revokedAt, probes));
      await sleep(100);
      const res = await fetch(`${servers[1]!.url}/keys/${key.slice(0, 12)}/revoke`, {
        method: 'POST',
        headers: { authorization: `Bearer ${admin}` },
      });
      revokedAt = Date.now();
      assert.equal(res.status, 200, await res.clone().text());
      const body = (await res.json()) as { Id: string; RevokedAt: string | null };
      assert.equal(body.Id, key.slice(0, 12));
      assert.match(body.RevokedAt ?? '', /^\/Date\(\d+(?:[+-]\d{4})?\)\/$/);
      assertRefusedForGood(await probing, revokedAt);
    });
  });
}
