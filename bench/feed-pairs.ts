import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { cpuSecondsOf } from './lib/cpu.js';
import { createDatabase, seedBenchData } from './lib/database.js';
import { n2 } from './lib/format.js';
import { startService, type ServerProcess } from './lib/processes.js';
import { readStream, ORDER_START } from './lib/stream.js';
import { CUSTOMERS } from './lib/settings.js';

// The order feed's server CPU per order of several checkouts, all serving one SQLite database at
// once and reading the whole feed in turns (a b c, c b a, …): each turn's figures are compared with
// the other checkouts' of the same turn, so that what the machine's other work moves falls on all
// alike. compare.ts runs one server at a time, whose rounds lie a minute apart.
//   node --import tsx bench/feed-pairs.ts --root <checkout A> --root <checkout B> [--turns 15] [--feeds 3]
//   [--node-args=--cpu-prof] [--pause 0]
// --pause: seconds every server stays idle before each turn, so that each turn begins after a quiet
// stretch (src/heap-settings.ts collects the heap of a server quiet for 2 s). Every checkout must be
// built, and must know the same migrations. BENCH_CUSTOMERS/BENCH_ORDERS size the data set.

const { values } = parseArgs({
  options: {
    root: { type: 'string', multiple: true, default: [] },
    turns: { type: 'string', default: '15' },
    feeds: { type: 'string', default: '3' },
    pause: { type: 'string', default: '0' },
    'node-args': { type: 'string', default: '' },
  },
});

const roots = values.root.length > 0 ? values.root.map((r) => resolve(r)) : [resolve('.')];
const db = await createDatabase('sqlite', 'feed-pairs');
const servers: ServerProcess[] = [];
try {
  const data = await seedBenchData(db, CUSTOMERS, true);
  for (const root of roots)
    servers.push(await startService({ databaseUrl: db.url, root, nodeArgs: values['node-args'].split(' ').filter(Boolean) }));
  const feed = async (s: ServerProcess): Promise<number> => {
    const r = await readStream(s.url, '/orders/', ORDER_START);
    if (!r.complete || r.items !== data.orders) throw new Error(`incomplete feed: ${r.items} of ${data.orders}`);
    return r.items;
  };
  for (const s of servers) for (let i = 0; i < 3; i++) await feed(s);
  // Where a server's CPU went: its main thread's user and system time and minor page faults (memory
  // given back and touched again is paid in the kernel), and V8's and libuv's other threads.
  const threads = (pid: number): Map<string, number> => {
    const out = new Map<string, number>([
      ['main user s', 0],
      ['main system s', 0],
      ['main minor faults', 0],
      ['other threads s', 0],
    ]);
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      // After the command name: minflt is field 7, utime 11, stime 12 (in clock ticks of 10 ms).
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const [faults, user, system] = [Number(f[7]), Number(f[11]) / 100, Number(f[12]) / 100];
      if (tid === String(pid)) {
        out.set('main user s', user).set('main system s', system).set('main minor faults', faults);
      } else {
        out.set('other threads s', out.get('other threads s')! + user + system);
      }
    }
    return out;
  };
  const threadsBefore = servers.map((s) => threads(s.pid));
  const perOrder: number[][] = roots.map(() => []);
  const turns = Number(values.turns);
  for (let turn = 0; turn < turns; turn++) {
    const order = turn % 2 === 0 ? roots.map((_, i) => i) : roots.map((_, i) => roots.length - 1 - i);
    if (Number(values.pause) > 0) await new Promise((r) => setTimeout(r, Number(values.pause) * 1000));
    for (const i of order) {
      const s = servers[i]!;
      const before = cpuSecondsOf(s.pid);
      let items = 0;
      for (let f = 0; f < Number(values.feeds); f++) items += await feed(s);
      perOrder[i]!.push(((cpuSecondsOf(s.pid) - before) * 1e6) / items);
    }
    process.stdout.write(`turn ${turn + 1}: ${perOrder.map((xs) => n2(xs.at(-1))).join(' | ')} µs CPU/order\n`);
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
  process.stdout.write(`\nmedians of ${turns} turns (${values.feeds} feeds of ${data.orders} orders each):\n`);
  servers.forEach((s, i) => {
    const now = threads(s.pid);
    const parts = [...now].map(([name, v]) => `${name} ${n2(v - threadsBefore[i]!.get(name)!)}`);
    process.stdout.write(`  ${roots[i]} over the turns: ${parts.join(', ')}\n`);
  });
  roots.forEach((root, i) => {
    const ratios = perOrder[i]!.map((x, t) => x / perOrder[0]![t]!);
    process.stdout.write(
      `  ${root}: ${n2(median(perOrder[i]!))} µs/order, ${n2((median(ratios) - 1) * 100)} % against the first (median of turns' ratios)\n`,
    );
  });
} finally {
  for (const s of servers) await s.stop();
  await db.drop();
}
