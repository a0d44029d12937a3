import { readdirSync, readFileSync } from 'node:fs';

// Linux reports process times in clock ticks; USER_HZ is 100 on every mainstream kernel.
const TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far; 0 once it is gone. */
export function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: state is field 0, utime field 11, stime field 12.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

const commOf = (pid: string): string | undefined => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined; // gone meanwhile
  }
};

/** CPU seconds so far of every visible process named `postgres` (the server and its backends). */
function postgresCpu(): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (/^\d+$/.test(name) && commOf(name) === 'postgres') seconds.set(Number(name), cpuSecondsOf(Number(name)));
  }
  return seconds;
}

/**
 * CPU seconds PostgreSQL used since `start`: backends that exist at the end count from the start, or
 * wholly when they are new; those gone meanwhile are lost. Undefined when no postgres process is visible.
 */
function postgresUsedSince(start: ReadonlyMap<number, number>): number | undefined {
  const end = postgresCpu();
  if (start.size === 0 && end.size === 0) return undefined;
  let used = 0;
  // A reused pid could start below its predecessor's figure: never count less than nothing.
  for (const [pid, s] of end) used += Math.max(0, s - (start.get(pid) ?? 0));
  return used;
}

export interface CoresUsed {
  /** Cores kept busy by the server processes. */
  readonly server: number;
  /** Cores kept busy by this process (the load generator). */
  readonly generator: number;
  /** Cores kept busy by PostgreSQL's processes, whoever they served; undefined when none is visible. */
  readonly database?: number;
}

/** Measures how many cores a set of processes, PostgreSQL and this process keep busy over a span of time. */
export function cpuMeter(pids: () => readonly number[]): () => CoresUsed {
  const ids = [...pids()];
  const serverStart = ids.reduce((s, p) => s + cpuSecondsOf(p), 0);
  const databaseStart = postgresCpu();
  const selfStart = process.cpuUsage();
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const serverUsed = ids.reduce((s, p) => s + cpuSecondsOf(p), 0) - serverStart;
    const self = process.cpuUsage(selfStart);
    const database = postgresUsedSince(databaseStart);
    return {
      server: serverUsed / seconds,
      generator: (self.user + self.system) / 1e6 / seconds,
      ...(database === undefined ? {} : { database: database / seconds }),
    };
  };
}
