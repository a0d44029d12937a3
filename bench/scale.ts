import { join } from 'node:path';
import { n0, n2 } from './lib/format.js';
import { blockData, dataComment, readBlock, writeBlock } from './lib/blocks.js';
import { createDatabase } from './lib/database.js';
import { describeMachine, currentLoad } from './lib/machine.js';
import { QUICK, ROOT } from './lib/settings.js';
import { twoInstances, type InstancesResult } from './scale/pg-instances.js';
import { measureSizes, type SizeResult } from './scale/sqlite-sizes.js';

// `npm run bench:scale`: SQLite at 10^5, 10^6 and 10^7 customers, and two PostgreSQL instances on
// one database. BENCH_SCALE_SIZES=100000,1000000 measures fewer sizes (10^7 takes minutes to seed).

interface ScaleData {
  readonly date: string;
  readonly loadAtStart: number;
  readonly loadAtEnd: number;
  readonly sizes: readonly SizeResult[];
  readonly instances?: InstancesResult;
  readonly notes: readonly string[];
}

const FILE = join(ROOT, 'BENCHMARKS.md');
const SIZES = (process.env.BENCH_SCALE_SIZES ?? (QUICK ? '10000,100000' : '100000,1000000,10000000')).split(',').map(Number);
const log = (line: string): void => void process.stdout.write(`${line}\n`);

function render(data: ScaleData, previous: ScaleData | undefined): string {
  const prev = new Map((previous?.sizes ?? []).map((s) => [s.size, s]));
  const rows = data.sizes.map((s) => {
    const p = prev.get(s.size);
    return (
      `| ${n0(s.size)} | ${n0(s.seedRate)} | ${n0(s.fileMb)} | ${n0(s.lookup.reqPerSec)} | ${n2(s.lookup.p50)} / ${n2(s.lookup.p99)} | ${n0(s.lookup.cpuUsPerRequest)} | ` +
      `${n2(s.lookupDuringSync.p50)} / ${n2(s.lookupDuringSync.p99)} | ${n0(s.sync.customersPerSec)}${s.sync.complete ? '' : ` (first ${n0(s.sync.customers)})`} | ${n0(s.sync.rssGrowthMb)} | ` +
      `${p ? `${n2(p.lookup.p99)} ms, ${n0(p.sync.customersPerSec)}/s` : '–'} |`
    );
  });
  const i = data.instances;
  const pi = previous?.instances;
  return `## Scale (\`npm run bench:scale\`)

Run on ${data.date.slice(0, 16).replace('T', ' ')} UTC; load average ${n2(data.loadAtStart)} at the start, ${n2(data.loadAtEnd)} at the end.
One SQLite database grown through the sizes with \`seed\`; at each size a fresh server process, id
lookups at 10 connections (10,000 distinct ids over the whole table), one whole-table sync (capped
at 20 s above 10^6) and id lookups at 2 connections while syncs stream. Flat lookup cost shows best
in the server CPU per lookup: latency and req/s also move with other work on the machine.

| customers | seed customers/s | file MB | lookups req/s | lookup p50 / p99 ms | server CPU µs/lookup | lookup during sync p50 / p99 ms | sync customers/s | sync RSS growth MB | previous (lookup p99, sync) |
| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |
${rows.join('\n')}

${
  i
    ? `PostgreSQL, two service instances on one database (${n0(i.customers)} customers), id lookups at 5 connections on each:
${n0(i.combinedReqPerSec)} req/s combined (A ${n0(i.perInstance[0]?.reqPerSec)}, p99 ${n2(i.perInstance[0]?.p99)} ms; B ${n0(i.perInstance[1]?.reqPerSec)}, p99 ${n2(i.perInstance[1]?.p99)} ms)${pi ? `, previous ${n0(pi.combinedReqPerSec)} req/s` : ''}.
Meanwhile ${n0(i.writes)} upserts through A, each read back at once through B: ${i.staleReads} stale reads, ${i.failedWrites} failed writes.
After the load both instances' full syncs were ${i.syncsAgree ? 'identical' : 'DIFFERENT'} (${n0(i.syncCount)} customers each).`
    : 'PostgreSQL two-instance run: not measured.'
}
${data.notes.map((n) => `\n${n}`).join('')}

${dataComment(data)}`;
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const notes: string[] = [];
  log(`ordergate scale run: sizes ${SIZES.map(n0).join(', ')}; load average ${machine.loadAtStart.toFixed(2)}`);
  const sqlite = await createDatabase('sqlite', 'scale');
  let sizes: SizeResult[] = [];
  try {
    sizes = await measureSizes(sqlite, SIZES, log);
  } catch (err) {
    notes.push(`SQLite sizes stopped early: ${err instanceof Error ? err.message : String(err)}`);
    log(notes[notes.length - 1]!);
  } finally {
    await sqlite.drop();
  }
  let instances: InstancesResult | undefined;
  const pg = await createDatabase('postgres', 'scale');
  try {
    instances = await twoInstances(pg, QUICK ? 10_000 : 100_000, log);
  } catch (err) {
    notes.push(`PostgreSQL two-instance run failed: ${err instanceof Error ? err.message : String(err)}`);
    log(notes[notes.length - 1]!);
  } finally {
    await pg.drop();
  }
  if (machine.loadAtStart > 0.5)
    notes.push(`The machine was busy with other work when this run started (load average ${machine.loadAtStart.toFixed(2)}).`);
  const data: ScaleData = {
    date: new Date().toISOString(),
    loadAtStart: machine.loadAtStart,
    loadAtEnd: currentLoad(),
    sizes,
    ...(instances ? { instances } : {}),
    notes,
  };
  const text = render(data, blockData<ScaleData>(readBlock(FILE, 'scale')));
  if (QUICK || process.env.BENCH_WRITE === '0') log(`\n${text}`);
  else {
    writeBlock(FILE, 'scale', text);
    log(`\nwrote the scale section of ${FILE}`);
  }
  const inconsistent = instances !== undefined && (instances.staleReads > 0 || !instances.syncsAgree || instances.failedWrites > 0);
  if (inconsistent || notes.some((n) => n.includes('failed') || n.includes('stopped early'))) process.exitCode = 1;
}

await main();
