import { basename } from 'node:path';
import { auditCalls } from './audit-calls.js';
import { customerCalls, customerWordsCalls } from './customer-calls.js';
import { customFieldCalls } from './customfield-calls.js';
import { eventCalls } from './event-calls.js';
import { webhookCalls } from './webhook-calls.js';
import { keyCalls, syncClockCalls } from './key-and-clock-calls.js';
import { idempotencyCalls, orderCalls, orderWordsCalls } from './order-calls.js';
import { orderLifeCalls } from './order-life-calls.js';
import { orderShipmentsCalls } from './order-shipments-calls.js';
import { orderRecordsCalls } from './order-records-calls.js';
import { openRecordingStore, SNAPSHOT_BACKENDS, type RecordingStore, type SnapshotBackend } from './recording-store.js';
import { handleOf } from '../../src/store/store.js';
import { exportedFunctions, type SnapshotCall, type SnapshotSource } from './snapshot-calls.js';

/** Every module that runs SQL, in the order the snapshot lists them. */
export const SNAPSHOT_SOURCES: readonly SnapshotSource[] = [
  customerCalls,
  customerWordsCalls,
  orderCalls,
  orderWordsCalls,
  idempotencyCalls,
  orderLifeCalls,
  orderShipmentsCalls,
  orderRecordsCalls,
  customFieldCalls,
  keyCalls,
  syncClockCalls,
  auditCalls,
  eventCalls,
  webhookCalls,
];

/** The folder of the checked-in snapshot, from the project root. */
export const SNAPSHOT_DIR = 'queries';

/** One snapshot file: where it goes (from the project root) and what it holds. */
export interface SnapshotFile {
  readonly path: string;
  readonly text: string;
}

const BACKEND_NAMES: Record<SnapshotBackend, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

export const snapshotPath = (source: SnapshotSource, backend: SnapshotBackend): string =>
  `${SNAPSHOT_DIR}/${backend}/${basename(source.source, '.ts')}.sql`;

/** The statements one call runs; a function that throws on an empty result still shows what it ran. */
async function recordCall(store: RecordingStore, name: string, { args, run }: SnapshotCall): Promise<string[]> {
  await store.db
    .transaction()
    .execute((trx) => run({ db: handleOf(trx, store.sql) }))
    .catch(() => undefined);
  const queries = store.take();
  if (queries.length === 0) throw new Error(`sql snapshot: ${name}(${args}) ran no statement; give it arguments that do`);
  return queries.map((q) => `${q.sql};\n-- parameters: ${JSON.stringify(q.parameters)}`);
}

async function renderSource(source: SnapshotSource, backend: SnapshotBackend): Promise<string> {
  const store = openRecordingStore(backend);
  const parts = [`-- ${BACKEND_NAMES[backend]}: the SQL of ${source.source}. Written by \`npm run sql:snapshot\`; do not edit.\n`];
  for (const [name, calls] of Object.entries(source.calls)) {
    for (const c of calls) {
      const statements = await recordCall(store, name, c);
      parts.push(`-- ${name}(${c.args})\n${statements.join('\n')}\n`);
    }
  }
  return parts.join('\n');
}

/** The whole snapshot, as `npm run sql:snapshot` writes it. */
export async function renderSnapshot(): Promise<SnapshotFile[]> {
  const files: SnapshotFile[] = [];
  for (const backend of SNAPSHOT_BACKENDS) {
    for (const source of SNAPSHOT_SOURCES) files.push({ path: snapshotPath(source, backend), text: await renderSource(source, backend) });
  }
  return files;
}

/** Functions a module exports that the snapshot neither calls nor lists as a builder, as `source: name`. */
export function uncoveredFunctions(): string[] {
  return SNAPSHOT_SOURCES.flatMap((s) =>
    exportedFunctions(s.exports)
      .filter((name) => !(name in s.calls) && !(name in (s.builders ?? {})))
      .map((name) => `${s.source}: ${name}`),
  );
}
