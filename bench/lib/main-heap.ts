import { authHeaders } from './load.js';
import type { MainHeap } from './memory-budget.js';

const MB = 1024 * 1024;

/** The named samples of a Prometheus text, keyed `name` or `name{space="new"}` as written. */
function gauges(text: string, names: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    const m = /^(\w+)(\{[^}]*\})? (\S+)$/.exec(line);
    if (m && names.includes(m[1]!)) out.set(`${m[1]}${m[2] ?? ''}`, Number(m[3]));
  }
  return out;
}

const PREFIX = 'ordergate_nodejs_';
const NAMES = ['heap_size_total_bytes', 'heap_size_used_bytes', 'external_memory_bytes', 'heap_space_size_total_bytes'].map(
  (n) => PREFIX + n,
);

/** The main isolate's heap figures in a Prometheus text of the service; undefined when they are not there. */
export function parseMainHeap(text: string): MainHeap | undefined {
  const g = gauges(text, NAMES);
  const total = g.get(`${PREFIX}heap_size_total_bytes`);
  const used = g.get(`${PREFIX}heap_size_used_bytes`);
  if (total === undefined || used === undefined) return undefined;
  const spacesMb: Record<string, number> = {};
  for (const [key, bytes] of g) {
    const space = /heap_space_size_total_bytes\{space="(\w+)"\}/.exec(key)?.[1];
    // Empty spaces (read_only and shared live outside the isolate in Node 20) would only add noise.
    if (space !== undefined && bytes > 0) spacesMb[space] = bytes / MB;
  }
  return { totalMb: total / MB, usedMb: used / MB, externalMb: (g.get(`${PREFIX}external_memory_bytes`) ?? 0) / MB, spacesMb };
}

/**
 * What V8 says the main isolate holds, from the service's Prometheus metrics (prom-client's default
 * ones; the bench key has admin). Only for a single worker: with WORKERS > 1 `/metrics` adds up the
 * workers. Undefined when the figures are not there.
 */
export async function readMainHeap(url: string): Promise<MainHeap | undefined> {
  const res = await fetch(`${url}/metrics`, { headers: { ...authHeaders(), accept: 'text/plain' } });
  return res.ok ? parseMainHeap(await res.text()) : undefined;
}
