import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, seedBenchData } from './lib/database.js';
import { n0, n2 } from './lib/format.js';
import { sampleWaits } from './lib/pg-waits.js';
import { startService, type ServerProcess } from './lib/processes.js';
import { CUSTOMERS, ROOT, type Backend } from './lib/settings.js';
import { scenarioById } from './scenarios/all.js';

// Before/after of a change: node --import tsx bench/compare.ts --a <baseline checkout> --b <changed checkout>
//   [--scenario search-get] [--backend sqlite] [--rounds 3] [--b-node-args=--max-semi-space-size=4] [--pg-waits]
// --pg-waits (PostgreSQL): also what the database's busy backends were doing, sampled (lib/pg-waits.ts).
// --a/--b default to this checkout, so that node flags alone can be compared too.
// Both checkouts must be built (npm run build). A and B take turns on the same database, so that
// other work on the machine falls on both alike; server CPU per request is the steadier figure.

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    scenario: { type: 'string', default: 'search-get' },
    backend: { type: 'string', default: 'sqlite' },
    rounds: { type: 'string', default: '3' },
    'a-node-args': { type: 'string', default: '' },
    'b-node-args': { type: 'string', default: '' },
    'pg-waits': { type: 'boolean', default: false },
  },
});

async function idleRss(server: ServerProcess): Promise<number> {
  await new Promise((r) => setTimeout(r, 1000));
  return Math.max(...server.rssMb());
}

async function main(): Promise<void> {
  const roots = { A: resolve(values.a ?? ROOT), B: resolve(values.b ?? ROOT) };
  const flags = { A: values['a-node-args'].split(' ').filter(Boolean), B: values['b-node-args'].split(' ').filter(Boolean) };
  const scenario = scenarioById(values.scenario);
  const backend = values.backend as Backend;
  const db = await createDatabase(backend, 'compare');
  const rounds = Number(values.rounds);
  // Per side and figure: server CPU µs per request for request/response scenarios; for the sync,
  // customers/s and the p99 of id lookups while it streams.
  const figures = { A: new Map<string, number[]>(), B: new Map<string, number[]>() };
  const note = (side: 'A' | 'B', name: string, v: number | undefined): void => {
    if (v === undefined || !Number.isFinite(v)) return;
    figures[side].set(name, [...(figures[side].get(name) ?? []), v]);
  };
  try {
    // The confirmations of every round take fresh open orders from the one data set.
    const data = await seedBenchData(db, CUSTOMERS, scenario.usesOrders === true);
    for (let round = 1; round <= rounds; round++) {
      for (const side of round % 2 === 1 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const server = await startService({ databaseUrl: db.url, root: roots[side], nodeArgs: flags[side] });
        try {
          const run = () => scenario.run({ backend, server, db, ...data });
          const sampled =
            values['pg-waits'] && backend === 'postgres' ? await sampleWaits(db.url, run) : { value: await run(), waits: undefined };
          const r = sampled.value;
          for (const [state, share] of sampled.waits?.shares ?? []) note(side, `PostgreSQL busy backends: ${state} %`, share * 100);
          if (r.status !== 'ok') throw new Error(`${side}: ${r.status} ${r.note ?? ''}`);
          const l = r.load;
          const parts: string[] = [];
          if (l) {
            const us = (l.serverCores * 1e6) / l.reqPerSec;
            note(side, 'server CPU µs/req', us);
            note(side, 'p99 ms', l.p99);
            note(side, 'req/s', l.reqPerSec);
            parts.push(`${n0(l.reqPerSec)} req/s, p50 ${n2(l.p50)} ms, p99 ${n2(l.p99)} ms, server ${n0(us)} µs CPU/req`);
            if (l.databaseCores !== undefined) {
              const pgUs = (l.databaseCores * 1e6) / l.reqPerSec;
              note(side, 'PostgreSQL CPU µs/req', pgUs);
              parts.push(`PostgreSQL ${n0(pgUs)} µs CPU/req`);
            }
          }
          for (const [k, v] of Object.entries(r.extra ?? {})) {
            note(side, k, v);
            parts.push(`${k} ${n2(v)}`);
          }
          note(side, 'idle RSS after the load MB', await idleRss(server));
          process.stdout.write(
            `round ${round} ${side}: ${parts.join(', ')}, RSS ${n0(figures[side].get('idle RSS after the load MB')?.at(-1))} MB ${r.note ?? ''}\n`,
          );
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await db.drop();
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`\n${scenario.id} [${backend}], medians of ${rounds} rounds:\n`);
  for (const [name, as] of figures.A) {
    const a = median(as);
    const b = median(figures.B.get(name) ?? [NaN]);
    process.stdout.write(`  ${name}: A ${n2(a)}, B ${n2(b)} (${n2(((b - a) / a) * 100)} %)\n`);
  }
}

await main();
