import { Session } from 'node:inspector/promises';
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { createDatabase, seed } from './lib/database.js';
import { startInProcessApp } from './lib/in-process-app.js';
import type { Backend } from './lib/settings.js';
import { confirmation } from './scenarios/orders.js';

// Usage: npm run build && node --import tsx bench/files-crossed.ts [--backend sqlite] [--baseline /webhooks]
// Which source files one confirmation and one erasure run code in, by folder: V8's precise coverage
// counts the functions called during the one request (after a warm-up of the same kind, so that
// module loading is not counted). Each is printed twice: the whole request, and the part below the
// request pipeline — the files the operation runs that the baseline (a trivial authenticated read:
// wire, ops, auth, the store's read path) does not. The second part is listed in the order its files
// are first entered, from a further request of the same kind with a logpoint (a breakpoint whose
// condition records the file and answers false, so nothing pauses) on every breakable location of
// those files. A module's index.ts has no function of its own (it re-exports), so it is never counted.
// SQLite's writes run inline here rather than in the write thread, whose code this thread's
// inspector does not see; the files are the same but for the thread's hand-over.

const { values } = parseArgs({
  options: { backend: { type: 'string', default: 'postgres' }, baseline: { type: 'string', default: '/keys/current' } },
});
const backend = values.backend as Backend;
const root = fileURLToPath(new URL('..', import.meta.url));

const db = await createDatabase(backend, 'files');
try {
  await seed(db, 20, 6, 0);
  // The webhook dispatcher looks for due deliveries once a minute instead of every second: its rounds
  // would otherwise now and then fall into a measured request.
  const { app, key, close } = await startInProcessApp(db, 'files-crossed', { inlineWrites: true, env: { WEBHOOK_POLL_MS: '60000' } });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const confirm = async (orderId: number): Promise<string> => {
    const res = await app.inject({
      method: 'POST',
      url: `/orders/${orderId}/confirm`,
      headers,
      payload: confirmation(orderId, orderId * 2, 20),
    });
    if (res.statusCode !== 200) throw new Error(`confirmation: ${res.statusCode} ${res.body}`);
    return (JSON.parse(res.body) as { CustomerId: string }).CustomerId;
  };
  const erase = async (customerId: string): Promise<void> => {
    const res = await app.inject({ method: 'POST', url: `/customer/${customerId}/erase`, headers });
    if (res.statusCode !== 200) throw new Error(`erasure: ${res.statusCode} ${res.body}`);
  };
  const baseline = async (): Promise<void> => {
    const res = await app.inject({ method: 'GET', url: values.baseline, headers });
    if (res.statusCode !== 200) throw new Error(`baseline: ${res.statusCode} ${res.body}`);
  };

  // Longer than the authenticator trusts a key's row: the next request reads it again.
  const keyRowAged = () => sleep(600);
  /** The baseline just after the key's row was read: the next request finds it trusted, as almost every request does. */
  const keyTrusted = async () => {
    await keyRowAged();
    await baseline();
  };

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Debugger.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  /** The src/ files whose functions ran during `work`, with their scripts' ids. */
  const filesOf = async (work: () => Promise<unknown>): Promise<Map<string, string>> => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counts
    await work();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const ran = result.filter((s) => s.url.startsWith('file://') && s.functions.some((f) => f.ranges.some((r) => r.count > 0)));
    return new Map(ran.map((s) => [relative(root, fileURLToPath(s.url)), s.scriptId] as const).filter(([f]) => f.startsWith('src/')));
  };
  /** `files` in the order `work` first runs code in them (a file it does not enter is left out). */
  const entryOrder = async (files: Map<string, string>, work: () => Promise<unknown>): Promise<string[]> => {
    const names = [...files.keys()];
    const entered = new Set<number>();
    (globalThis as { __entered?: (i: number) => false }).__entered = (i) => (entered.add(i), false);
    const ids: string[] = [];
    for (const [i, scriptId] of [...files.values()].entries()) {
      const { locations } = await session.post('Debugger.getPossibleBreakpoints', { start: { scriptId, lineNumber: 0, columnNumber: 0 } });
      for (const location of locations) {
        const set = await session.post('Debugger.setBreakpoint', { location, condition: `globalThis.__entered(${i})` });
        ids.push(set.breakpointId);
      }
    }
    await work();
    for (const breakpointId of ids) await session.post('Debugger.removeBreakpoint', { breakpointId });
    return [...entered].map((i) => names[i]!);
  };

  // Warm-up: order 1, the erasure of its customer, and the baseline. Coverage: order 2, and the
  // erasure of order 3's customer; order of entry: order 4, and the erasure of order 5's customer.
  await erase(await confirm(1));
  await baseline();
  const [third, fifth] = [await confirm(3), await confirm(5)];
  // The baseline reads the key's row (part of the pipeline too); the measured requests find it trusted.
  await keyRowAged();
  const common = await filesOf(baseline);
  await keyTrusted();
  const confirmed = await filesOf(() => confirm(2));
  await keyTrusted();
  const measured = { confirmation: confirmed, erasure: await filesOf(() => erase(third)) };
  const below = (files: Map<string, string>) => new Map([...files].filter(([f]) => !common.has(f)));
  const ordered = {
    confirmation: await entryOrder(below(measured.confirmation), () => confirm(4)),
    erasure: await entryOrder(below(measured.erasure), () => erase(fifth)),
  };
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();

  const byFolder = (files: Iterable<string>): Map<string, string[]> => {
    const folders = new Map<string, string[]>();
    for (const f of files) folders.set(dirname(f), [...(folders.get(dirname(f)) ?? []), f.slice(dirname(f).length + 1)]);
    return folders;
  };
  const print = (title: string, folders: Map<string, string[]>): void => {
    process.stdout.write(`${title}: ${[...folders.values()].flat().length} files in ${folders.size} folders\n`);
    for (const [folder, inIt] of folders) process.stdout.write(`  ${folder} (${inIt.length}): ${inIt.join(', ')}\n`);
  };
  process.stdout.write(`baseline GET ${values.baseline}: ${common.size} files\n`);
  for (const what of ['confirmation', 'erasure'] as const) {
    print(`${what}, whole request`, byFolder([...measured[what].keys()].sort()));
    print(`${what}, below the pipeline, in the order first entered`, byFolder(ordered[what]));
    const missed = [...below(measured[what]).keys()].filter((f) => !ordered[what].includes(f));
    if (missed.length > 0) process.stdout.write(`  not entered by the second request: ${missed.join(', ')}\n`);
  }
  await close();
} finally {
  await db.drop();
}
