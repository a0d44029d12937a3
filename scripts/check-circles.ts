/**
 * `node --import tsx scripts/check-circles.ts [dir]` (run by `npm test`): fails when the imports under
 * `dir` (default `src`) form a circle, between files or between top-level entries (folders and
 * top-level files), and prints each circle. Arrows between modules point down only, so every circle
 * holds an arrow that points up.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { circles, groupGraph, importGraph, topLevelEntry, type ImportGraph } from './import-graph.js';

/** One import the check looks past, with the reason it is still there. */
export interface AllowedImport {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

/**
 * The only imports allowed to close a circle, each until the write-side redesign (issue 13) lands:
 * it moves group commit and the write door into `src/writes/` and the customer SQL into `customers/`,
 * and these imports go with them. The check ignores exactly these arrows; a circle that remains
 * without them fails, and so does an entry whose import is gone (so no stale entry can let a circle
 * back in).
 */
export const ALLOWED_UNTIL_WRITES_REDESIGN: readonly AllowedImport[] = [
  {
    from: 'customfields/customfield.writes.ts',
    to: 'orders/group-commit.ts',
    why: 'value writes queue on the orders group commit; closes customfields ↔ orders (with orders/writer.ts → customfield.writes)',
  },
  {
    from: 'customfields/customfield.operations.ts',
    to: 'orders/order-writes.ts',
    why: 'custom-field routes open the write door that orders own; closes customfields ↔ orders',
  },
  {
    from: 'orders/order.statements.ts',
    to: 'orders/order.repository.ts',
    why: 'the customer SQL in orders/: the statements take the CustomerAddress type back from the repository',
  },
];

/** What the check found: circles between files, between top-level entries, and allowances no import uses. */
export interface CircleReport {
  readonly fileCircles: string[][];
  readonly entryCircles: string[][];
  readonly unusedAllowances: AllowedImport[];
}

function without(graph: ImportGraph, allowed: readonly AllowedImport[]): ImportGraph {
  return new Map(
    [...graph].map(([file, deps]) => [file, new Set([...deps].filter((dep) => !allowed.some((a) => a.from === file && a.to === dep)))]),
  );
}

/** Checks the tree at `root`, looking past the `allowed` imports (paths relative to `root`). */
export function checkCircles(root: string, allowed: readonly AllowedImport[]): CircleReport {
  const graph = importGraph(root);
  const counted = without(graph, allowed);
  return {
    fileCircles: circles(counted),
    entryCircles: circles(groupGraph(counted, topLevelEntry)),
    unusedAllowances: allowed.filter((a) => !graph.get(a.from)?.has(a.to)),
  };
}

/** The project's own sources: the only tree the allowances are about. */
const SRC = fileURLToPath(new URL('../src', import.meta.url));

function main(dir: string): number {
  const root = resolve(dir);
  const report = checkCircles(root, root === SRC ? ALLOWED_UNTIL_WRITES_REDESIGN : []);
  const found = [
    ...report.unusedAllowances.map((a) => `allowed import ${a.from} → ${a.to} is gone: delete it from ALLOWED_UNTIL_WRITES_REDESIGN`),
    ...report.fileCircles.map((c) => `import circle between files: ${c.map((f) => `${dir}/${f}`).join(' <-> ')}`),
    ...report.entryCircles.map((c) => `import circle between top-level entries of ${dir}/: ${c.join(' <-> ')}`),
  ];
  if (found.length === 0) return 0;
  process.stderr.write(`${found.join('\n')}\ncheck-circles: ${found.length} problem(s); imports between modules point down only\n`);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'src');
