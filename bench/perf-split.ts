import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createDatabase, seedBenchData } from './lib/database.js';
import { n0 } from './lib/format.js';
import { startService } from './lib/processes.js';
import { CUSTOMERS, type Backend } from './lib/settings.js';
import { scenarioById } from './scenarios/all.js';

// Where a scenario's server CPU goes by binary — the kernel (sockets, scheduling), node (V8's
// builtins and runtime, Node's C++), JIT-compiled JavaScript, SQLite — from Linux `perf record` of the
// serving process while the scenario runs. The V8 profiler (bench/profile.ts) counts the wall time
// of a sample that lands in a system call; perf counts only CPU, so the two disagree on `writev`.
//   node --import tsx bench/perf-split.ts --scenarios floor,search-get [--backend sqlite]
// Needs `perf` (linux-perf) and permission to record another process (root, or perf_event_paranoid ≤ 1).

const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: 'floor,search-get' },
    backend: { type: 'string', default: 'sqlite' },
  },
});

/** `perf report` by binary: [share %, binary] pairs, largest first. */
function byBinary(file: string): Array<[number, string]> {
  const out = spawnSync('perf', ['report', '-i', file, '--sort', 'dso', '--stdio'], { encoding: 'utf8' }).stdout;
  return out
    .split('\n')
    .map((line) => /^\s*([\d.]+)%\s+(.+?)\s*$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), m[2]!.replace(/^\[JIT\].*/, '[JIT code]')]);
}

const backend = values.backend as Backend;
const dir = mkdtempSync(join(tmpdir(), 'ordergate-perf-'));
const db = await createDatabase(backend, 'perf');
try {
  const data = await seedBenchData(
    db,
    CUSTOMERS,
    values.scenarios.split(',').some((id) => scenarioById(id).usesOrders === true),
  );
  const server = await startService({ databaseUrl: db.url });
  try {
    for (const id of values.scenarios.split(',')) {
      const file = join(dir, `${id}.data`);
      // Recording starts with the scenario's warm-up and stops before its end.
      const perf = spawn('perf', ['record', '-q', '-F', '2000', '-o', file, '-p', server.servingPids().join(','), '--', 'sleep', '6'], {
        stdio: 'inherit',
      });
      const exited = new Promise((resolve) => perf.on('exit', resolve));
      const r = await scenarioById(id).run({ backend, server, db, ...data });
      await exited;
      const l = r.load;
      process.stdout.write(
        `\n${id} [${backend}]: ${l ? `${n0(l.reqPerSec)} req/s, ${n0((l.serverCores * 1e6) / l.reqPerSec)} µs of server CPU per request` : r.status}\n`,
      );
      for (const [share, binary] of byBinary(file).slice(0, 8)) process.stdout.write(`  ${share.toFixed(1).padStart(5)} %  ${binary}\n`);
    }
  } finally {
    await server.stop();
  }
} finally {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
}
