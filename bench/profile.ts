import { n2 } from './lib/format.js';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { summarise } from './lib/cpuprofile.js';
import { createDatabase, seedBenchData } from './lib/database.js';
import { startService } from './lib/processes.js';
import { CUSTOMERS, type Backend } from './lib/settings.js';
import { scenarioById } from './scenarios/all.js';

// Usage: node --import tsx bench/profile.ts [--scenario search-get] [--backend sqlite] [--root <built checkout>]
//        node --import tsx bench/profile.ts --summarise file.cpuprofile
// Runs one scenario against a server started with --cpu-prof and prints the top self-time functions.

const { values } = parseArgs({
  options: {
    scenario: { type: 'string', default: 'search-get' },
    backend: { type: 'string', default: 'sqlite' },
    summarise: { type: 'string' },
    top: { type: 'string', default: '30' },
    root: { type: 'string' },
  },
});

function print(file: string): void {
  const { samples, intervalMs, functions, areas, inclusiveAreas } = summarise(file, Number(values.top));
  const pct = (s: number): string => `${(s * 100).toFixed(1).padStart(5)} %`;
  const out = (line: string): void => void process.stdout.write(`${line}\n`);
  out(`\n${file}\n${samples} busy samples (about ${intervalMs.toFixed(2)} ms apart)`);
  out('\nself time by package / area:');
  for (const a of areas.slice(0, 15)) out(`  ${pct(a.share)}  ${a.name}`);
  out('\ninclusive (stack passes through it):');
  for (const a of inclusiveAreas.slice(0, 15)) out(`  ${pct(a.share)}  ${a.name}`);
  out('\ntop self time:');
  for (const f of functions) out(`  ${pct(f.share)}  ${f.name}  ${f.where}`);
}

async function profile(): Promise<void> {
  const scenario = scenarioById(values.scenario);
  const backend = values.backend as Backend;
  const db = await createDatabase(backend, 'profile');
  const dir = mkdtempSync(join(tmpdir(), 'ordergate-cpuprof-'));
  try {
    const data = await seedBenchData(db, CUSTOMERS, scenario.usesOrders === true);
    const server = await startService({
      databaseUrl: db.url,
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
      ...(values.root ? { root: resolve(values.root) } : {}),
    });
    try {
      const result = await scenario.run({ backend, server, db, ...data });
      const l = result.load;
      process.stdout.write(
        `${scenario.id} [${backend}] ${result.status}${l ? `: ${Math.round(l.reqPerSec)} req/s, p50 ${n2(l.p50)} ms, p99 ${n2(l.p99)} ms` : ''} ${result.note ?? ''}\n`,
      );
    } finally {
      await server.stop();
    }
  } finally {
    await db.drop();
  }
  for (const f of readdirSync(dir).filter((x) => x.endsWith('.cpuprofile'))) print(join(dir, f));
}

if (values.summarise) print(values.summarise);
else await profile();
