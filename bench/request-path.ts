import { parseArgs } from 'node:util';
import { createDatabase, seed } from './lib/database.js';
import { startInProcessApp } from './lib/in-process-app.js';
import { n2 } from './lib/format.js';

// Usage: node [--cpu-prof] --import tsx bench/request-path.ts [--requests 20000] [--rounds 5] [--only search-get,floor]
// The service's own request path in one process, without sockets: the app (buildApp, as `serve`
// builds it) answers injected requests of each kind, taking turns, and the CPU time per request of
// each kind is printed beside that of /health/live (Fastify with the service's hooks). What a read
// costs above the floor here is the wire layer, the handler, the store's call and the JSON writer:
// what the limit server (bench/limit-server.ts) does in a few lines. The injector's own cost is in
// every figure alike. Run with `node --cpu-prof` to see which functions the difference is made of.

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '5' },
    customers: { type: 'string', default: '2000' },
    only: { type: 'string' },
  },
});

const db = await createDatabase('sqlite', 'request-path');
try {
  await seed(db, Number(values.customers), 20, 10);
  const { app, key, close } = await startInProcessApp(db, 'request-path');
  const headers = { authorization: `Bearer ${key}` };
  const kinds: Record<string, { url: string; status: number }> = {
    floor: { url: '/health/live', status: 200 },
    'search-get': { url: '/customer/?Identifiers=C00000017', status: 200 },
    'search-50': {
      url: `/customer/?Identifiers=${Array.from({ length: 50 }, (_, i) => `C${String(i * 13 + 1).padStart(8, '0')}`).join(',')}`,
      status: 200,
    },
    'cf-read': { url: '/customer/C00000017/customfields/', status: 200 },
    'order-get': { url: '/orders/1', status: 200 },
  };
  const only = values.only?.split(',');
  if (only) for (const name of Object.keys(kinds)) if (name !== 'floor' && !only.includes(name)) delete kinds[name];
  const perKind = new Map<string, number[]>();
  const requests = Number(values.requests);
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, { url, status }] of Object.entries(kinds)) {
      const started = process.cpuUsage();
      for (let i = 0; i < requests; i++) {
        const res = await app.inject({ url, headers });
        if (res.statusCode !== status) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
      const used = process.cpuUsage(started);
      perKind.set(name, [...(perKind.get(name) ?? []), (used.user + used.system) / requests]);
    }
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const floor = median(perKind.get('floor')!);
  for (const [name, us] of perKind) {
    const m = median(us);
    process.stdout.write(`${name.padEnd(11)} ${n2(m).padStart(8)} µs CPU/request, ${n2(m - floor).padStart(8)} µs above the floor\n`);
  }
  await close();
} finally {
  await db.drop();
}
