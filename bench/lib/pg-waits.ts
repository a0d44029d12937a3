import pg from 'pg';
import { PG_URL } from './settings.js';

/** What PostgreSQL's backends of one database were doing while busy with it, as shares of the samples. */
export interface WaitShares {
  readonly samples: number;
  /** Share of backend samples by state: `waiting for the client`, `lock: …`, `io: …`, `running`, … */
  readonly shares: ReadonlyMap<string, number>;
}

const ACTIVITY = `select state, wait_event_type, wait_event from pg_stat_activity
  where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid() and state <> 'idle'`;

function stateOf(r: { state: string; wait_event_type: string | null; wait_event: string | null }): string {
  // Inside a transaction and waiting for the next statement: the client (the service) is the wait.
  if (r.state.startsWith('idle in transaction')) return 'waiting for the client (in a transaction)';
  if (r.wait_event_type === 'Lock') return `lock: ${r.wait_event}`;
  if (r.wait_event_type === 'IO' || r.wait_event_type === 'LWLock') return `${r.wait_event_type.toLowerCase()}: ${r.wait_event}`;
  if (r.wait_event_type === 'Client') return 'waiting for the client (statement)';
  return 'running';
}

/**
 * Samples pg_stat_activity every few milliseconds while `work` runs: where the transactions of the
 * database spend their time (running, waiting for a lock, for the WAL flush, or for the service to
 * send the next statement). Backends idle outside a transaction are not counted.
 */
export async function sampleWaits<T>(databaseUrl: string, work: () => Promise<T>): Promise<{ value: T; waits: WaitShares }> {
  const database = new URL(databaseUrl).pathname.slice(1);
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const counts = new Map<string, number>();
  let samples = 0;
  let done = false;
  const sampler = (async () => {
    while (!done) {
      const rows = (await client.query<Parameters<typeof stateOf>[0]>(ACTIVITY, [database])).rows;
      for (const r of rows) {
        const state = stateOf(r);
        counts.set(state, (counts.get(state) ?? 0) + 1);
      }
      samples += rows.length;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  try {
    const value = await work();
    return {
      value,
      waits: { samples, shares: new Map([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v / Math.max(1, samples)])) },
    };
  } finally {
    done = true;
    await sampler.catch(() => undefined);
    await client.end();
  }
}
