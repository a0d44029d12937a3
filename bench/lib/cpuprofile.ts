import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface SelfTime {
  readonly name: string;
  readonly where: string;
  readonly ms: number;
  readonly share: number;
}

/** Where a frame lives: `fastify/lib/route.js`, `src/wire/binder.ts`, `node:internal/…`. */
function shortUrl(url: string): string {
  if (url === '') return '(native)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) return url.slice(nm + '/node_modules/'.length);
  const src = url.search(/\/(src|dist|bench)\//);
  if (src !== -1) return url.slice(src + 1);
  return url.replace(/^file:\/\//, '');
}

/** Package (or area) of a frame, for the coarse view: which library the time goes to. */
function areaOf(url: string): string {
  if (url === '') return '(native / GC / idle)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node core';
  const m = /\/(?:src|dist)\/([^/]+)\//.exec(url);
  return m ? `ordergate ${m[1]}` : 'other';
}

/** Self time per function (and per package) of a V8 .cpuprofile, idle time left out. */
export function summarise(file: string, top = 25): { total: number; functions: SelfTime[]; areas: SelfTime[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    selfMs.set(id, (selfMs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  }
  const fns = new Map<string, { name: string; where: string; ms: number }>();
  const areas = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of selfMs) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    total += ms;
    const where = f.url === '' ? '' : `${shortUrl(f.url)}:${f.lineNumber + 1}`;
    const key = `${f.functionName}@${where}`;
    const entry = fns.get(key) ?? { name: f.functionName || '(anonymous)', where, ms: 0 };
    entry.ms += ms;
    fns.set(key, entry);
    const area = f.functionName === '(garbage collector)' ? '(garbage collector)' : areaOf(f.url);
    areas.set(area, (areas.get(area) ?? 0) + ms);
  }
  const share = (ms: number): number => (total === 0 ? 0 : ms / total);
  return {
    total,
    functions: [...fns.values()].sort((a, b) => b.ms - a.ms).slice(0, top).map((e) => ({ ...e, share: share(e.ms) })),
    areas: [...areas.entries()].sort((a, b) => b[1] - a[1]).map(([name, ms]) => ({ name, where: '', ms, share: share(ms) })),
  };
}
