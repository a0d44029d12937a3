import { n0, n1 } from './format.js';
import { budgetFromExtra, pagesBeyondMainHeap, PARTS, type BudgetMoment, type MemoryBudget } from './memory-budget.js';
import type { RowData } from './targets.js';

// How the memory budgets of the idle-rss rows are shown: the table of BENCHMARKS.md and of the
// console summary, the sentence beside the missed RSS targets, and the bench's progress line.

const MOMENT: Readonly<Record<BudgetMoment, string>> = { start: 'after start', idle: 'after the load' };

interface Column {
  readonly backend: string;
  readonly moment: BudgetMoment;
  readonly budget: MemoryBudget;
}

const IDLE_ROW = /^(\w+)\/idle-rss$/;

function columns(rows: readonly RowData[]): Column[] {
  const out: Column[] = [];
  for (const r of rows) {
    const backend = IDLE_ROW.exec(r.key)?.[1];
    if (backend === undefined || r.status !== 'ok') continue;
    for (const moment of ['start', 'idle'] as const) {
      const budget = budgetFromExtra(r.extra, moment);
      if (budget) out.push({ backend, moment, budget });
    }
  }
  return out;
}

/** Lines below the parts: V8's view of the main isolate and the thread count, which the parts contain. */
const DETAILS: readonly { readonly label: string; readonly holds: string; readonly cell: (b: MemoryBudget) => string }[] = [
  {
    label: "↳ of the V8 pages: the main isolate's heap, committed / used",
    holds:
      "V8's own figures (`ordergate_nodejs_heap_size_total_bytes`, `…_used_bytes` of `/metrics`); committed pages not touched yet are not resident, so the committed figure can exceed the pages",
    cell: (b) => (b.mainHeap ? `${n1(b.mainHeap.totalMb)} / ${n1(b.mainHeap.usedMb)}` : '–'),
  },
  {
    label: "↳ of the V8 pages: beyond the main isolate's heap",
    holds:
      "the write thread's isolate while it runs (SQLite: started by the first write, stopped after 5 s idle), V8 pages kept after collections",
    cell: (b) => n1(pagesBeyondMainHeap(b.parts.v8Pages, b.mainHeap?.totalMb)),
  },
  {
    label: "main isolate's heap by space, committed",
    holds:
      "the new space is two semi-spaces of up to 16 MB each (Node 20's default), grown by the allocations of start-up already; V8 shrinks them only some time after the load. The old space holds what survives",
    cell: (b) =>
      Object.entries(b.mainHeap?.spacesMb ?? {})
        .map(([space, mb]) => `${space} ${n0(mb)}`)
        .join(', ') || '–',
  },
  {
    label: 'V8 external memory',
    holds:
      'ArrayBuffers and Buffers V8 tracks (`ordergate_nodejs_external_memory_bytes`): held in the malloc parts above, not a part of its own',
    cell: (b) => n1(b.mainHeap?.externalMb),
  },
  { label: 'threads', holds: 'of the process (`/proc/<pid>/status`); the write thread adds one while it runs', cell: (b) => n0(b.threads) },
];

/**
 * The memory budget per worker: each part in MB after start and after the load, per backend, with
 * what holds it. Undefined when no row has a budget (runs before it was measured).
 */
export function memoryBudgetTable(rows: readonly RowData[]): string | undefined {
  const cols = columns(rows);
  if (cols.length === 0) return undefined;
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  const lines = [
    line(['part', ...cols.map((c) => `${c.backend} ${MOMENT[c.moment]}, MB`), 'what holds it']),
    line(['---', ...cols.map(() => '---:'), '---']),
    ...PARTS.map((p) => line([p.label, ...cols.map((c) => n1(c.budget.parts[p.id])), p.holds])),
    line([
      '**RSS, sum of the parts**',
      ...cols.map((c) => `**${n1(c.budget.rssMb)}**`),
      'every resident page of the worker, from `/proc/<pid>/smaps`',
    ]),
    ...DETAILS.map((d) => line([d.label, ...cols.map((c) => d.cell(c.budget)), d.holds])),
  ];
  return lines.join('\n');
}

/** The idle-rss row with the largest figure at that moment (as the RSS targets judge), with its budget. */
function worstColumn(rows: readonly RowData[], moment: BudgetMoment): Column | undefined {
  const figure = (r: RowData): number => (moment === 'start' ? r.extra?.afterStartMb : r.extra?.maxWorkerRssMb) ?? -1;
  const candidates = columns(rows).filter((c) => c.moment === moment);
  const byKey = new Map(rows.map((r) => [r.key, r]));
  const size = (c: Column): number => figure(byKey.get(`${c.backend}/idle-rss`)!);
  return candidates.reduce<Column | undefined>((top, c) => (!top || size(c) > size(top) ? c : top), undefined);
}

/** `V8 heap pages, every isolate 80 MB (the main isolate's heap 60 MB committed, 34 MB used); node binary 44 MB; …`: parts of 1 MB and more, largest first. */
function partsList(b: MemoryBudget): string {
  return PARTS.filter((p) => b.parts[p.id] >= 1)
    .sort((x, y) => b.parts[y.id] - b.parts[x.id])
    .map((p) => {
      const heap =
        p.id === 'v8Pages' && b.mainHeap
          ? ` (the main isolate's heap ${n0(b.mainHeap.totalMb)} MB committed, ${n0(b.mainHeap.usedMb)} MB used)`
          : '';
      return `${p.label} ${n0(b.parts[p.id])} MB${heap}`;
    })
    .join('; '); // part labels hold commas
}

/** What the budget of the worst worker says, for the obstacle of a missed RSS target; undefined without one. */
export function budgetSentence(rows: readonly RowData[], moment: BudgetMoment): string | undefined {
  const c = worstColumn(rows, moment);
  return c && `This run's budget (${c.backend}, ${MOMENT[c.moment]}, ${n0(c.budget.rssMb)} MB in smaps): ${partsList(c.budget)}.`;
}

/** The bench's progress line: each part after start → after the load. */
export function budgetLine(start: MemoryBudget | undefined, idle: MemoryBudget | undefined): string {
  if (!start && !idle) return 'memory budget: not measured';
  const pair = (pick: (b: MemoryBudget) => number | undefined, fmt = n1): string =>
    `${start ? fmt(pick(start)) : '–'} → ${idle ? fmt(pick(idle)) : '–'}`;
  const parts = PARTS.map((p) => `${p.label} ${pair((b) => b.parts[p.id])}`);
  const heap = `main isolate's V8 heap ${pair((b) => b.mainHeap?.totalMb)} committed, ${pair((b) => b.mainHeap?.usedMb)} used`;
  return `memory budget after start → after the load, MB: ${parts.join(', ')}; ${heap}; threads ${pair((b) => b.threads, n0)}`;
}
