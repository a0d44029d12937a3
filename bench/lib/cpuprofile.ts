import { readFileSync } from 'node:fs';

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly startTime: number;
  readonly endTime: number;
}

export interface Share {
  readonly name: string;
  readonly where: string;
  /** Fraction of the busy samples. */
  readonly share: number;
}

export interface Summary {
  /** Busy samples (idle and program ticks left out) and the sampling interval in ms. */
  readonly samples: number;
  readonly intervalMs: number;
  /** Self time per function. */
  readonly functions: Share[];
  /** Self time per package or area. */
  readonly areas: Share[];
  /** Samples whose stack passes through the package or area anywhere (callees included). */
  readonly inclusiveAreas: Share[];
}

/** Where a frame lives: `fastify/lib/route.js`, `dist/wire/binder.js`, `node:internal/…`. */
function shortUrl(url: string): string {
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) return url.slice(nm + '/node_modules/'.length);
  const src = url.search(/\/(src|dist|bench)\//);
  if (src !== -1) return url.slice(src + 1);
  return url.replace(/^file:\/\//, '');
}

/** Package (or area of this service) of a frame, for the coarse view: where the time goes. */
function areaOf(frame: ProfileNode['callFrame']): string {
  const { url, functionName } = frame;
  if (functionName === '(garbage collector)') return '(garbage collector)';
  if (url === '') return '(native: syscalls, C++ builtins)';
  const nm = url.lastIndexOf('/node_modules/');
  if (nm !== -1) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  if (url.startsWith('node:')) return 'node core';
  const m = /\/(?:src|dist)\/([^/]+)\//.exec(url);
  return m ? `ordergate ${m[1]}` : 'other';
}

/**
 * Self and inclusive time of a V8 .cpuprofile. Samples are counted rather than their time deltas
 * summed: on a machine shared with other work a process that waits for a core gets one long delta
 * at the point where it resumes (typically a syscall such as writev), which would swamp the rest.
 */
export function summarise(file: string, top = 25): Summary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const count = new Map<number, number>();
  for (const id of profile.samples) count.set(id, (count.get(id) ?? 0) + 1);

  const fns = new Map<string, { name: string; where: string; n: number }>();
  const areas = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let busy = 0;
  for (const [id, n] of count) {
    const f = byId.get(id)!.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    busy += n;
    const where = f.url === '' ? '' : `${shortUrl(f.url)}:${f.lineNumber + 1}`;
    const key = `${f.functionName}@${where}`;
    const entry = fns.get(key) ?? { name: f.functionName || '(anonymous)', where, n: 0 };
    entry.n += n;
    fns.set(key, entry);
    areas.set(areaOf(f), (areas.get(areaOf(f)) ?? 0) + n);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      if (frame.functionName === '(root)') break;
      seen.add(areaOf(frame));
    }
    for (const a of seen) inclusive.set(a, (inclusive.get(a) ?? 0) + n);
  }
  const share = (n: number): number => (busy === 0 ? 0 : n / busy);
  const sorted = (m: Map<string, number>): Share[] =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).map(([name, n]) => ({ name, where: '', share: share(n) }));
  return {
    samples: busy,
    intervalMs: (profile.endTime - profile.startTime) / 1000 / Math.max(1, profile.samples.length),
    functions: [...fns.values()]
      .sort((a, b) => b.n - a.n)
      .slice(0, top)
      .map((e) => ({ name: e.name, where: e.where, share: share(e.n) })),
    areas: sorted(areas),
    inclusiveAreas: sorted(inclusive),
  };
}
