import { readFileSync } from 'node:fs';

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

/** Measures how many cores a set of processes and this process keep busy over a span of time. */
export function cpuMeter(pids: () => readonly number[]): () => { server: number; generator: number } {
  const ids = [...pids()];
  const serverStart = ids.reduce((s, p) => s + cpuSecondsOf(p), 0);
  const selfStart = process.cpuUsage();
  const started = performance.now();
  return () => {
    const seconds = (performance.now() - started) / 1000;
    const serverUsed = ids.reduce((s, p) => s + cpuSecondsOf(p), 0) - serverStart;
    const self = process.cpuUsage(selfStart);
    return { server: serverUsed / seconds, generator: (self.user + self.system) / 1e6 / seconds };
  };
}
