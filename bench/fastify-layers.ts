import { LAYERS } from './lib/fastify-layers.js';
import { createDatabase, seed } from './lib/database.js';
import { n0, n2 } from './lib/format.js';
import { load } from './lib/load.js';
import { startBenchServer, startService, startYardstick, type ServerProcess } from './lib/processes.js';

// What each thing the service adds to Fastify costs on its cheapest route: bare node:http (the
// yardstick), bare Fastify, then Fastify with one more of the service's layers at a time
// (bench/fastify-layers-server.ts), and the service's own `GET /health/live`. Beside them, bare
// Fastify setting only the headers every answer of the service carries, in one hook: what no
// rearrangement of the service's layers can go below. Servers take turns,
// ROUNDS rounds of 4 s; the medians of server CPU per request are compared.
// node --import tsx bench/fastify-layers.ts   (ROUNDS=3 by default)

const ROUNDS = Number(process.env.ROUNDS ?? 3);
const timing = { seconds: 4, warmupSeconds: 1 };

const db = await createDatabase('sqlite', 'layers');
const servers: Array<{ label: string; server: ServerProcess; path: string }> = [];
try {
  await seed(db, 1_000);
  servers.push({ label: 'bare node:http (yardstick)', server: await startYardstick(), path: '/customer/' });
  servers.push({
    label: "bare Fastify + the service's headers",
    server: await startBenchServer('fastify-layers-server.ts', '/health/live', { LAYERS: '0', HEADERS_ONLY: '1' }),
    path: '/health/live',
  });
  for (let n = 0; n <= LAYERS.length; n++) {
    const label = n === 0 ? 'bare Fastify' : `+ ${LAYERS[n - 1]}`;
    servers.push({
      label,
      server: await startBenchServer('fastify-layers-server.ts', '/health/live', { LAYERS: String(n) }),
      path: '/health/live',
    });
  }
  servers.push({ label: 'the service: GET /health/live', server: await startService({ databaseUrl: db.url }), path: '/health/live' });
  const cpu = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const { label, server, path } of servers) {
      const r = await load({ url: server.url, requests: [{ path }], servingPids: () => server.servingPids(), timing });
      cpu.set(label, [...(cpu.get(label) ?? []), (r.serverCores * 1e6) / r.reqPerSec]);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const yardstick = median(cpu.get(servers[0]!.label)!);
  for (const { label } of servers) {
    const m = median(cpu.get(label)!);
    process.stdout.write(
      `${label.padEnd(32)} ${n2(m).padStart(6)} µs CPU/req  ×${n2(m / yardstick)} the yardstick  (rounds: ${cpu.get(label)!.map(n0).join(', ')})\n`,
    );
  }
} finally {
  for (const { server } of servers) await server.stop();
  await db.drop();
}
