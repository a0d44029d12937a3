import { cpus, loadavg, release, totalmem } from 'node:os';

export interface Machine {
  readonly cores: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly kernel: string;
  /** 1-minute load average when the run started and ended: other work on the machine shows here. */
  readonly loadAtStart: number;
  loadAtEnd?: number;
}

export function describeMachine(): Machine {
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    kernel: release(),
    loadAtStart: loadavg()[0]!,
  };
}

export const currentLoad = (): number => loadavg()[0]!;
