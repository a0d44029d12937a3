import { readFileSync, readlinkSync } from 'node:fs';
import { readSmaps, type Mapping } from './smaps.js';

/**
 * A worker's RSS split by what holds it, from `/proc/<pid>/smaps`, classified by the shapes seen in
 * a running `node bin/ordergate.js serve` (Node 20, x64 Linux, glibc). The parts add up to the sum
 * of the mappings' Rss; V8's own figures for the main isolate come beside it (main-heap.ts).
 */
export const PARTS = [
  {
    id: 'nodeBinary',
    label: 'node binary',
    holds:
      "the mapped `node` executable (V8, ICU data, startup snapshot, built-ins, also remapped into the code range): file pages from the page cache, shared by every node process but counted in each one's RSS",
  },
  { id: 'nativeAddons', label: 'native addons', holds: '`*.node` files: better_sqlite3.node with SQLite compiled in (file pages, shared)' },
  {
    id: 'otherFiles',
    label: 'shared libraries, other files',
    holds: "libc, libstdc++, libm, the dynamic loader; SQLite's `-shm` WAL index",
  },
  {
    id: 'mallocHeap',
    label: 'main malloc heap (`[heap]`)',
    holds:
      "glibc's main arena: what the main thread mallocs below the mmap threshold (node's and V8's C++ objects, SQLite's page caches and statements of the main thread's connections, small Buffers); freed chunks between live ones are not given back",
  },
  {
    id: 'threadArenas',
    label: 'thread malloc arenas',
    holds:
      "glibc arenas of the other threads (64 MB-aligned mappings): the write thread's SQLite connection and isolate internals, the libuv pool, V8's platform threads",
  },
  {
    id: 'threadStacks',
    label: 'thread stacks',
    holds:
      'the main stack and one per thread (8 MB reserved per helper thread, 4 MB for a worker thread such as the write thread): only touched pages count',
  },
  {
    id: 'v8Pages',
    label: 'V8 heap pages, every isolate',
    holds:
      "anonymous mappings at V8's randomised, 256 KB-aligned page addresses: the main isolate's heap (its share from V8 below) and, while it runs, the write thread's isolate, plus pages V8 keeps after a collection",
  },
  {
    id: 'otherAnonymous',
    label: 'other anonymous memory',
    holds: "V8's code ranges (JIT code), malloc's own mmap'd blocks of 128 KB and more, node's .bss",
  },
] as const;

export type PartId = (typeof PARTS)[number]['id'];

/** What V8 says the main isolate holds (the service's `/metrics`), in MB. */
export interface MainHeap {
  /** Committed heap of every space (`ordergate_nodejs_heap_size_total_bytes`). */
  readonly totalMb: number;
  readonly usedMb: number;
  /** Memory of ArrayBuffers and Buffers that V8 tracks, held by malloc outside the V8 heap. */
  readonly externalMb: number;
  /** Committed size per space: new, old, code, large_object, … */
  readonly spacesMb: Readonly<Record<string, number>>;
}

export interface MemoryBudget {
  /** Sum of the mappings' Rss, in MB: what the parts add up to (VmRSS can differ by a few pages). */
  readonly rssMb: number;
  readonly parts: Readonly<Record<PartId, number>>;
  readonly threads: number;
  readonly mainHeap?: MainHeap;
}

const KB = 1024;
const MB = KB * KB;
/** glibc's HEAP_MAX_SIZE on 64-bit: each non-main arena is a reservation of this size, aligned to it. */
const ARENA_SIZE = 64 * MB;
/** V8's page size: its heap pages start on this boundary. */
const V8_PAGE = 256 * KB;
/**
 * V8 picks random hint addresses below 2^46 for its pages (OS::GetRandomMmapAddr); glibc and other
 * unhinted mmaps take addresses just below 2^47, so the two do not mix.
 */
const V8_HINT_LIMIT = 2 ** 46;
/** The largest guard page glibc puts below a thread stack here; 4 KB seen. */
const MAX_GUARD = 64 * KB;
const MIN_STACK = 1 * MB;

const isAnonymous = (m: Mapping): boolean => m.path === '';
const isReserve = (m: Mapping | undefined): m is Mapping => m !== undefined && isAnonymous(m) && m.perms === '---p';

/** A non-main arena: a 64 MB-aligned read-write start, the rest of its 64 MB reserved (---p) after it. */
function isArena(m: Mapping, next: Mapping | undefined): boolean {
  if (m.perms !== 'rw-p' || m.start % ARENA_SIZE !== 0) return false;
  if (m.end - m.start === ARENA_SIZE) return true;
  return isReserve(next) && next.start === m.end && next.end === m.start + ARENA_SIZE;
}

/** A pthread stack: read-write, at least 1 MB, right above a small guard mapping. */
const isThreadStack = (m: Mapping, previous: Mapping | undefined): boolean =>
  m.perms === 'rw-p' &&
  m.end - m.start >= MIN_STACK &&
  isReserve(previous) &&
  previous.end === m.start &&
  previous.end - previous.start <= MAX_GUARD;

const isV8Page = (m: Mapping): boolean => m.start < V8_HINT_LIMIT && m.start % V8_PAGE === 0;

function classify(m: Mapping, previous: Mapping | undefined, next: Mapping | undefined, exe: string): PartId {
  if (m.path === exe) return 'nodeBinary';
  if (m.path.endsWith('.node')) return 'nativeAddons';
  if (m.path.startsWith('/')) return 'otherFiles';
  if (m.path === '[heap]') return 'mallocHeap';
  if (m.path === '[stack]') return 'threadStacks';
  if (!isAnonymous(m)) return 'otherAnonymous'; // [vdso], [vvar], named anonymous memory
  if (isArena(m, next)) return 'threadArenas';
  if (isThreadStack(m, previous)) return 'threadStacks';
  if (isV8Page(m)) return 'v8Pages';
  return 'otherAnonymous';
}

/** Resident MB of each part; `exe` is the node binary's path as the maps name it. */
export function splitRss(mappings: readonly Mapping[], exe: string): Record<PartId, number> {
  const kb = Object.fromEntries(PARTS.map((p) => [p.id, 0])) as Record<PartId, number>;
  mappings.forEach((m, i) => {
    if (m.rssKb > 0) kb[classify(m, mappings[i - 1], mappings[i + 1], exe)] += m.rssKb;
  });
  return Object.fromEntries(PARTS.map((p) => [p.id, kb[p.id] / KB])) as Record<PartId, number>;
}

const threadsOf = (pid: number): number => Number(/^Threads:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);

/** The budget of a live process; `mainHeap` when its V8 figures were read (one worker's /metrics). */
export function readMemoryBudget(pid: number, mainHeap?: MainHeap): MemoryBudget {
  const mappings = readSmaps(pid);
  const parts = splitRss(mappings, readlinkSync(`/proc/${pid}/exe`));
  const rssMb = Object.values(parts).reduce((s, v) => s + v, 0);
  return { rssMb, parts, threads: threadsOf(pid), ...(mainHeap ? { mainHeap } : {}) };
}

/** V8 pages the main isolate's heap does not account for: other isolates, pages kept; undefined without V8's figure. */
export const pagesBeyondMainHeap = (v8PagesMb: number, mainHeapMb: number | undefined): number | undefined =>
  mainHeapMb === undefined ? undefined : Math.max(0, v8PagesMb - mainHeapMb);

/** When a budget was taken: 1 s after start, or idle after the whole load. */
export type BudgetMoment = 'start' | 'idle';

/**
 * A budget as flat figures for a row's `extra` (stored in BENCHMARKS.md's data): `start.nodeBinary`,
 * `idle.v8MainHeapUsed`, … all in MB but `threads`.
 */
export function budgetExtra(moment: BudgetMoment, b: MemoryBudget): Record<string, number> {
  const out: Record<string, number> = { [`${moment}.threads`]: b.threads };
  for (const p of PARTS) out[`${moment}.${p.id}`] = b.parts[p.id];
  if (b.mainHeap) {
    out[`${moment}.v8MainHeap`] = b.mainHeap.totalMb;
    out[`${moment}.v8MainHeapUsed`] = b.mainHeap.usedMb;
    out[`${moment}.v8External`] = b.mainHeap.externalMb;
    for (const [space, mb] of Object.entries(b.mainHeap.spacesMb)) out[`${moment}.v8Space.${space}`] = mb;
  }
  return out;
}

/** The budget stored by budgetExtra, or undefined when the row has none (runs before it was measured). */
export function budgetFromExtra(extra: Readonly<Record<string, number>> | undefined, moment: BudgetMoment): MemoryBudget | undefined {
  const get = (key: string): number | undefined => extra?.[`${moment}.${key}`];
  if (get('nodeBinary') === undefined) return undefined;
  const parts = Object.fromEntries(PARTS.map((p) => [p.id, get(p.id) ?? 0])) as Record<PartId, number>;
  const total = get('v8MainHeap');
  const prefix = `${moment}.v8Space.`;
  const spacesMb = Object.fromEntries(
    Object.entries(extra ?? {})
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v]),
  );
  return {
    rssMb: Object.values(parts).reduce((s, v) => s + v, 0),
    parts,
    threads: get('threads') ?? 0,
    ...(total === undefined
      ? {}
      : { mainHeap: { totalMb: total, usedMb: get('v8MainHeapUsed') ?? 0, externalMb: get('v8External') ?? 0, spacesMb } }),
  };
}
