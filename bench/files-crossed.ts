import { Session } from 'node:inspector/promises';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabase, seed } from './lib/database.js';
import { startInProcessApp } from './lib/in-process-app.js';
import type { Backend } from './lib/settings.js';
import { confirmation } from './scenarios/orders.js';

// Usage: npm run build && node --import tsx bench/files-crossed.ts [--backend postgres]
// Which source files one confirmation and one erasure run code in, by folder: V8's precise coverage
// counts the functions called during the one request (after a warm-up of the same kind, so that
// module loading is not counted). The HTTP pipeline (wire, ops, auth) and the store are in every
// request alike; what differs is which resource modules a change goes through. PostgreSQL is the default, as
// its units of work run in the serving thread (SQLite's run in the write thread, which this
// process's coverage does not see).

const { values } = parseArgs({ options: { backend: { type: 'string', default: 'postgres' } } });
const backend = values.backend as Backend;
const root = fileURLToPath(new URL('..', import.meta.url));

const db = await createDatabase(backend, 'files');
try {
  await seed(db, 20, 6, 0);
  const { app, key, close } = await startInProcessApp(db, 'files-crossed');
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

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
  /** The src/ files whose functions ran during `work`, in the order V8 lists their scripts. */
  const filesOf = async (work: () => Promise<unknown>): Promise<string[]> => {
    await session.post('Profiler.takePreciseCoverage'); // resets the counts
    await work();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    return result
      .filter((s) => s.url.startsWith('file://') && s.functions.some((f) => f.ranges.some((r) => r.count > 0)))
      .map((s) => relative(root, fileURLToPath(s.url)))
      .filter((f) => f.startsWith('src/'));
  };

  // Warm-up: order 1 for customer C1, then its erasure; measured: order 2 and an erasure of its customer.
  await erase(await confirm(1));
  const customerId = await confirm(3);
  const confirmed = await filesOf(() => confirm(2));
  const erased = await filesOf(() => erase(customerId));
  await session.post('Profiler.stopPreciseCoverage');
  session.disconnect();
  for (const [what, files] of [
    ['confirmation', confirmed],
    ['erasure', erased],
  ] as const) {
    const byFolder = new Map<string, string[]>();
    for (const f of files.sort()) {
      const folder = f.split('/').slice(0, -1).join('/');
      byFolder.set(folder, [...(byFolder.get(folder) ?? []), f]);
    }
    process.stdout.write(`${what}: ${files.length} files in ${byFolder.size} folders\n`);
    for (const [folder, inIt] of byFolder)
      process.stdout.write(`  ${folder} (${inIt.length}): ${inIt.map((f) => f.slice(folder.length + 1)).join(', ')}\n`);
  }
  await close();
} finally {
  await db.drop();
}
