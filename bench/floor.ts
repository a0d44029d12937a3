import { createDatabase, seed } from './lib/database.js';
import { n0, n2 } from './lib/format.js';
import { load } from './lib/load.js';
import { startService, startYardstick, type ServerProcess } from './lib/processes.js';
import { CUSTOMERS } from './lib/settings.js';
import { customerId, spread } from './scenarios/scenario.js';

// Where a search's cost goes, layer by layer: bare node:http, the service's cheapest route
// (GET /health/live: Fastify with the service's hooks, logger and metrics), an authenticated
// route that fails validation before the store (wire layer and auth, no SQL), and the search.
// node --import tsx bench/floor.ts

async function measure(label: string, server: ServerProcess, path: string, expect: number): Promise<void> {
  const r = await load({ url: server.url, requests: [{ path }], servingPids: server.servingPids });
  const codes = Object.keys(r.statusCodes).join(',');
  const got = expect >= 400 ? (r.statusCodes[expect] ?? 0) / r.seconds : r.reqPerSec;
  process.stdout.write(
    `${label.padEnd(44)} ${n0(got).padStart(7)} req/s  p50 ${n2(r.p50)} ms  server ${n0((r.serverCores * 1e6) / got).padStart(4)} µs CPU/req  [${codes}]\n`,
  );
}

const yard = await startYardstick();
try {
  await measure('bare node:http (yardstick)', yard, '/customer/', 200);
} finally {
  await yard.stop();
}
const db = await createDatabase('sqlite', 'floor');
try {
  await seed(db, CUSTOMERS);
  const server = await startService({ databaseUrl: db.url });
  try {
    await measure('GET /health/live (Fastify + hooks)', server, '/health/live', 200);
    await measure('search, Take=-1 (wire + auth, 400, no SQL)', server, '/customer/?Identifiers=C1&Take=-1', 400);
    await measure('search by 1 identifier (full)', server, `/customer/?Identifiers=${customerId(spread(1, CUSTOMERS)[0]!)}`, 200);
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
}
