/**
 * `node --import tsx scripts/check-circles.ts [dir]` (run by `npm test`): fails when the imports under
 * `dir` (default `src`) form a circle, between files or between top-level entries (folders and
 * top-level files), and prints each circle. Arrows between modules point down only, so every circle
 * holds an arrow that points up.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { circles, groupGraph, importGraph, topLevelEntry } from './import-graph.js';

/** What the check found: circles between files and between top-level entries. */
export interface CircleReport {
  readonly fileCircles: string[][];
  readonly entryCircles: string[][];
}

/** Checks the tree at `root` (paths in the report relative to it). */
export function checkCircles(root: string): CircleReport {
  const graph = importGraph(root);
  return { fileCircles: circles(graph), entryCircles: circles(groupGraph(graph, topLevelEntry)) };
}

function main(dir: string): number {
  const root = resolve(dir);
  const report = checkCircles(root);
  const found = [
    ...report.fileCircles.map((c) => `import circle between files: ${c.map((f) => `${dir}/${f}`).join(' <-> ')}`),
    ...report.entryCircles.map((c) => `import circle between top-level entries of ${dir}/: ${c.join(' <-> ')}`),
  ];
  if (found.length === 0) return 0;
  process.stderr.write(`${found.join('\n')}\ncheck-circles: ${found.length} problem(s); imports between modules point down only\n`);
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'src');
