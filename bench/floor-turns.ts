import { alternatingCpuRatio, type Side } from './lib/alternating.js';
import { createDatabase, seed } from './lib/database.js';
import { n2 } from './lib/format.js';
import { startBenchServer, startService, startYardstick, YARDSTICK_REQUESTS, type ServerProcess } from './lib/processes.js';

// The floor's target (≤ 1.25 × the yardstick) beside what Fastify itself allows, all in loads taking
// turns with the yardstick as `npm run bench` judges the floor: the service's `GET /health/live`,
// bare Fastify, and bare Fastify setting only the headers every answer of the service carries
// (bench/fastify-layers-server.ts with HEADERS_ONLY=1).
// node --import tsx bench/floor-turns.ts   (ROUNDS=2 comparisons of each by default)

const ROUNDS = Number(process.env.ROUNDS ?? 2);
const db = await createDatabase('sqlite', 'floor-turns');
const servers: ServerProcess[] = [];
const started = async (server: Promise<ServerProcess>): Promise<ServerProcess> => {
  servers.push(await server);
  return servers.at(-1)!;
};
try {
  await seed(db, 1_000);
  const yardstick: Side = { server: await started(startYardstick()), requests: YARDSTICK_REQUESTS };
  const live = [{ path: '/health/live' }];
  const sides: Array<[string, Side]> = [
    ['the service: GET /health/live', { server: await started(startService({ databaseUrl: db.url })), requests: live }],
    [
      "bare Fastify + the service's headers",
      {
        server: await started(startBenchServer('fastify-layers-server.ts', '/health/live', { LAYERS: '0', HEADERS_ONLY: '1' })),
        requests: live,
      },
    ],
    [
      'bare Fastify',
      { server: await started(startBenchServer('fastify-layers-server.ts', '/health/live', { LAYERS: '0' })), requests: live },
    ],
  ];
  const ratios = new Map<string, number[]>();
  for (let round = 0; round < ROUNDS; round++)
    for (const [label, side] of sides) ratios.set(label, [...(ratios.get(label) ?? []), await alternatingCpuRatio(side, yardstick)]);
  for (const [label, xs] of ratios)
    process.stdout.write(`${label.padEnd(38)} ×${xs.map(n2).join(', ×')} the yardstick's CPU per request\n`);
} finally {
  for (const server of servers) await server.stop();
  await db.drop();
}
