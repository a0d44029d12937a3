import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import pg from 'pg';
import { ROOT } from './root.js';
import { freePort } from './spawn-server.js';
import { createTestDatabase, openMigrated, type TestDatabase } from './test-store.js';

/**
 * A PostgreSQL primary with a streaming replica, for the read-replica tests: PG_PRIMARY_TEST_URL
 * and PG_REPLICA_TEST_URL when both are set (superuser URLs of the `postgres` database), else a
 * throwaway pair of clusters on this machine made and started by replica-cluster.sh on first use
 * (Debian's postgresql, run as root or postgres) and reused by later runs.
 */
export interface ReplicaPair {
  readonly primaryUrl: string;
  readonly replicaUrl: string;
}

let pair: Promise<ReplicaPair> | undefined;

/** `preferred` when nothing listens on it (ports that stay the same from run to run), else any free port. */
async function portNear(preferred: number): Promise<number> {
  const free = await new Promise<boolean>((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(preferred, '127.0.0.1', () => s.close(() => resolve(true)));
  });
  return free ? preferred : freePort();
}

async function makePair(): Promise<ReplicaPair> {
  const given = [process.env.PG_PRIMARY_TEST_URL, process.env.PG_REPLICA_TEST_URL];
  if (given[0] && given[1]) return { primaryUrl: given[0], replicaUrl: given[1] };
  const script = join(ROOT, 'test/helpers/replica-cluster.sh');
  // Twice at most: a first run on a fresh machine makes both clusters and may meet one still starting.
  for (let attempt = 1; ; attempt++) {
    let problem: string;
    try {
      const ports = [await portNear(55432), await portNear(55433)];
      const out = (await promisify(execFile)(script, ports.map(String), { timeout: 180_000 })).stdout;
      const told = /^(\d+) (\d+)$/.exec(out.trim());
      if (told) {
        return {
          primaryUrl: `postgres://postgres@127.0.0.1:${told[1]}/postgres`,
          replicaUrl: `postgres://postgres@127.0.0.1:${told[2]}/postgres`,
        };
      }
      problem = `it printed ${JSON.stringify(out)}, not "<primary port> <replica port>"`;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      problem = e.stderr?.trim() || e.message;
    }
    if (attempt === 2) {
      throw new Error(
        `no read replica to test with (${script}: ${problem}); set PG_PRIMARY_TEST_URL and PG_REPLICA_TEST_URL to use another pair`,
      );
    }
    await sleep(1000);
  }
}

/** The pair, made or started once per process. */
export const replicaPair = (): Promise<ReplicaPair> => (pair ??= makePair());

/** A URL for the database `name` on the server of `url`. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function query<R extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<R>(text, params)).rows;
  } finally {
    await c.end();
  }
}

/** Waits until the replica has replayed everything the primary has written so far. */
export async function replicaCaughtUp(p: ReplicaPair, timeoutMs = 15_000): Promise<void> {
  const lsn = (await query<{ lsn: string }>(p.primaryUrl, 'select pg_current_wal_insert_lsn()::text as lsn'))[0]?.lsn;
  for (const until = Date.now() + timeoutMs; ;) {
    const [row] = await query<{ done: boolean }>(p.replicaUrl, 'select pg_last_wal_replay_lsn() >= $1::pg_lsn as done', [lsn]);
    if (row?.done) return;
    if (Date.now() > until) throw new Error(`the replica did not replay up to ${lsn} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** A fresh database on the primary, and its URL on the replica once the replica has it. */
export interface ReplicatedDatabase extends TestDatabase {
  /** The same database on the replica (DATABASE_READ_URL). */
  readonly readUrl: string;
}

/** Empty, or `migrated` (see createTestDatabase). */
export async function createReplicatedDatabase(options: { migrated?: boolean } = {}): Promise<ReplicatedDatabase> {
  const p = await replicaPair();
  const database = await createTestDatabase('postgres', p.primaryUrl, options);
  const name = new URL(database.url).pathname.slice(1);
  await replicaCaughtUp(p);
  return { ...database, readUrl: withDatabase(p.replicaUrl, name) };
}

/**
 * Stops (pause) or resumes the replica's replay of the WAL: what it shows stays as it was while the
 * primary goes on, a replica falling behind on demand. Replay is cluster-wide: only the replica
 * suite pauses it, briefly, and resumes it when it starts and ends.
 */
export async function setReplay(p: ReplicaPair, state: 'pause' | 'resume'): Promise<void> {
  await query(p.replicaUrl, state === 'pause' ? 'select pg_wal_replay_pause()' : 'select pg_wal_replay_resume()');
  if (state === 'resume') return;
  for (let i = 0; i < 200; i++) {
    const [row] = await query<{ state: string }>(p.replicaUrl, 'select pg_get_wal_replay_pause_state() as state');
    if (row?.state === 'paused') return;
    await sleep(10);
  }
  throw new Error('the replica did not pause its replay');
}

/** A migrated store on a fresh replicated database, reading through the replica where reads may. */
export async function createReplicatedTestStore(options: { retryMs?: number; readUrl?: (url: string) => string } = {}) {
  const database = await createReplicatedDatabase({ migrated: true });
  const made = await openMigrated(database, {
    replica: { url: options.readUrl?.(database.readUrl) ?? database.readUrl, ...(options.retryMs ? { retryMs: options.retryMs } : {}) },
  });
  await replicaCaughtUp(await replicaPair());
  return made;
}
