import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseMainHeap } from '../../bench/lib/main-heap.js';
import { budgetExtra, budgetFromExtra, PARTS, readMemoryBudget, splitRss, type MemoryBudget } from '../../bench/lib/memory-budget.js';
import { budgetLine, budgetSentence, memoryBudgetTable } from '../../bench/lib/memory-budget-report.js';
import { rssOf } from '../../bench/lib/processes.js';
import { parseSmaps } from '../../bench/lib/smaps.js';
import type { RowData } from '../../bench/lib/targets.js';

/** One smaps entry: the header line and the Rss line (the parser reads nothing else). */
const entry = (range: string, perms: string, path: string, rssKb: number): string =>
  `${range} ${perms} 00000000 00:00 0          ${path}\nSize:  4 kB\nRss:  ${rssKb} kB\nPss:  ${rssKb} kB\nVmFlags: rd wr mr mw me ac\n`;

// Shapes seen in the smaps of a running `node bin/ordergate.js serve` (Node 20, glibc).
const SAMPLE = [
  entry('00400000-00b6f000', 'r--p', '/usr/bin/node', 6896),
  entry('0565d000-05689000', 'rw-p', '', 164), // node's .bss beyond the file: other anonymous
  entry('32224000-3278f000', 'rw-p', '[heap]', 5436),
  entry('3b54ceec0000-3b54cef00000', 'rw-p', '', 256), // a V8 page: 256 KB-aligned, below 2^46
  entry('7fcc9c000000-7fcc9c7e0000', 'rw-p', '', 4344), // a thread arena: 64 MB-aligned…
  entry('7fcc9c7e0000-7fcca0000000', '---p', '', 0), // …the rest of its 64 MB reserved
  entry('7fcca55db000-7fcca5780000', 'r-xp', '/app/node_modules/better-sqlite3/build/Release/better_sqlite3.node', 1684),
  entry('7fcca57bc000-7fcca57bd000', '---p', '', 0), // a guard page…
  entry('7fcca57bd000-7fcca5fbd000', 'rw-p', '', 24), // …below an 8 MB thread stack
  entry('7fcca77c3000-7fcca77ff000', 'rwxp', '', 240), // JIT code in V8's code range
  entry('7fccc7600000-7fccc7792000', 'r-xp', '/usr/bin/node', 1088), // built-ins remapped into the code range
  entry('7fccce164000-7fccce2ba000', 'r-xp', '/usr/lib/x86_64-linux-gnu/libc.so.6', 1176),
  entry('7fccce2ba000-7fccce2bb000', 'rw-s', '/tmp/x.sqlite-shm (deleted)', 4),
  entry('7fff6cb0f000-7fff6cb30000', 'rw-p', '[stack]', 80),
].join('');

describe('the memory budget of a worker', () => {
  test('splits the smaps shapes of a serving worker into the parts that hold them', () => {
    const mappings = parseSmaps(SAMPLE);
    assert.equal(mappings.length, 14);
    assert.equal(mappings.at(-2)!.path, '/tmp/x.sqlite-shm');
    const kb = Object.fromEntries(Object.entries(splitRss(mappings, '/usr/bin/node')).map(([k, mb]) => [k, mb * 1024]));
    assert.deepEqual(kb, {
      nodeBinary: 6896 + 1088,
      nativeAddons: 1684,
      otherFiles: 1176 + 4,
      mallocHeap: 5436,
      threadArenas: 4344,
      threadStacks: 24 + 80,
      v8Pages: 256,
      otherAnonymous: 164 + 240,
    });
  });

  test('on this process: the parts add up to its RSS and the node binary is one of them', () => {
    const status = rssOf(process.pid);
    const budget = readMemoryBudget(process.pid);
    const sum = PARTS.reduce((s, p) => s + budget.parts[p.id], 0);
    assert.ok(Math.abs(sum - budget.rssMb) < 0.01, `parts ${sum} MB, RSS ${budget.rssMb} MB`);
    // VmRSS comes from counters the kernel updates lazily, and the heap moves between the two reads.
    assert.ok(Math.abs(budget.rssMb - status) < Math.max(4, status * 0.05), `smaps ${budget.rssMb} MB, VmRSS ${status} MB`);
    assert.ok(budget.parts.nodeBinary > 0, 'node binary part');
    assert.ok(budget.parts.v8Pages > 0, 'V8 pages part');
    assert.ok(budget.threads >= 1);
  });

  test("reads what V8 says of the main isolate from the service's metrics", () => {
    const text = [
      '# TYPE ordergate_nodejs_heap_size_total_bytes gauge',
      'ordergate_nodejs_heap_size_total_bytes 66822144',
      'ordergate_nodejs_heap_size_used_bytes 24280784',
      'ordergate_nodejs_external_memory_bytes 4194304',
      'ordergate_nodejs_heap_space_size_total_bytes{space="read_only"} 0',
      'ordergate_nodejs_heap_space_size_total_bytes{space="new"} 33554432',
      'ordergate_nodejs_heap_space_size_used_bytes{space="new"} 193088',
      'ordergate_process_resident_memory_bytes 162902016',
    ].join('\n');
    assert.deepEqual(parseMainHeap(text), {
      totalMb: 66822144 / 2 ** 20,
      usedMb: 24280784 / 2 ** 20,
      externalMb: 4,
      spacesMb: { new: 32 },
    });
    assert.equal(parseMainHeap('ordergate_http_requests_total 3'), undefined);
  });

  test('is stored in the idle row and shown as a table, a sentence for the RSS targets and a progress line', () => {
    const parts = {
      nodeBinary: 44,
      nativeAddons: 1.8,
      otherFiles: 3.7,
      mallocHeap: 6.4,
      threadArenas: 9.6,
      threadStacks: 0.3,
      v8Pages: 80,
      otherAnonymous: 2,
    };
    const start: MemoryBudget = {
      rssMb: 147.8,
      parts,
      threads: 12,
      mainHeap: { totalMb: 60, usedMb: 30, externalMb: 4, spacesMb: { new: 32, old: 27 } },
    };
    const idle: MemoryBudget = { rssMb: 96, parts: { ...parts, v8Pages: 28.2 }, threads: 11 };
    const row: RowData = {
      key: 'sqlite/idle-rss',
      label: 'idle RSS per worker',
      status: 'ok',
      extra: { afterStartMb: 148, maxWorkerRssMb: 96, ...budgetExtra('start', start), ...budgetExtra('idle', idle) },
    };
    // Through JSON, as BENCHMARKS.md keeps it.
    const stored = JSON.parse(JSON.stringify(row)) as RowData;
    assert.deepEqual(budgetFromExtra(stored.extra, 'start'), start);
    assert.equal(budgetFromExtra(stored.extra, 'idle')!.mainHeap, undefined);
    assert.equal(budgetFromExtra({ afterStartMb: 150 }, 'start'), undefined);

    const table = memoryBudgetTable([stored])!.split('\n');
    assert.match(table[0]!, /^\| part \| sqlite after start, MB \| sqlite after the load, MB \| what holds it \|$/);
    assert.match(
      table.find((l) => l.startsWith('| node binary |'))!,
      /\| 44\.0 \| 44\.0 \|/,
    );
    assert.match(
      table.find((l) => l.includes('beyond the main isolate'))!,
      /\| 20\.0 \| – \|/,
    );
    assert.match(
      table.find((l) => l.includes('RSS, sum'))!,
      /\*\*147\.8\*\*/,
    );
    assert.equal(memoryBudgetTable([{ key: 'sqlite/idle-rss', label: '', status: 'ok', extra: { afterStartMb: 1 } }]), undefined);

    assert.match(
      budgetSentence([stored], 'start')!,
      /^This run's budget \(sqlite, after start, 148 MB in smaps\): V8 heap pages, every isolate 80 MB \(the main isolate's heap 60 MB committed, 30 MB used\); node binary 44 MB; /,
    );
    assert.match(budgetLine(start, undefined), /node binary 44\.0 → –/);
  });
});
