/**
 * `node --import tsx scripts/check-circles.ts [dir]` (run by `npm test`): fails when the imports under
 * `dir` (default `src`) form a circle, between files or between top-level entries (folders and
 * top-level files); when a file imports a file of another resource module other than its `index.ts`
 * (the module's one public file); when a file other than `config.ts` reads `process.env`; or when
 * a file's name is off the rule (misnamedFiles). Prints each finding. Arrows between modules point down only, so every circle holds an arrow that points up.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { circles, groupGraph, importGraph, topLevelEntry, type ImportGraph } from './import-graph.js';

/**
 * The resource modules of src/: each offers the rest of the service one file, its `index.ts`. A new
 * resource module is added here.
 */
export const RESOURCE_MODULES: readonly string[] = [
  'audit',
  'auth',
  'customers',
  'customfields',
  'events',
  'keys',
  'money',
  'orders',
  'privacy',
  'webhooks',
];

/** The one file that reads the environment: everything else is given its configuration. */
const ENV_READER = 'config.ts';

/** What the check found: circles between files and between top-level entries, deep imports, and readers of the environment. */
export interface CircleReport {
  readonly fileCircles: string[][];
  readonly entryCircles: string[][];
  /** `file -> imported file`, where the imported file is another resource module's, not its `index.ts`. */
  readonly deepImports: string[];
  /** `file:line` of every `process.env` outside `config.ts`. */
  readonly envReads: string[];
  /** Files whose name is off the rule (misnamedFiles). */
  readonly misnamedFiles: string[];
}

/** A folder's name or one dot-separated part of a file's: lower-case words (letters, digits) joined by `-`. */
const KEBAB_CASE = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The file names' rule. Every folder and every dot-separated part of a file's name is kebab-case
 * (`write-thread.worker.ts`, `001-initial.ts`). In a resource module every file but `index.ts` is
 * `<subject>.<role>.ts`: what it is about (`order`, `order-life`, `key`), then what it is for it
 * (`repository`, `statements`, `service`, `operations`, `schemas`, `writes`, `erasure`, `events`,
 * `mapping`, `dispatcher`, …).
 */
export function misnamedFiles(files: Iterable<string>, modules: readonly string[] = RESOURCE_MODULES): string[] {
  const found: string[] = [];
  for (const file of files) {
    const folders = file.split('/');
    const name = folders.pop()!;
    const parts = name.replace(/\.ts$/, '').split('.');
    const inModule = modules.includes(topLevelEntry(file)) && folders.length > 0;
    const shaped = inModule && name !== 'index.ts' ? parts.length === 2 : true;
    if (!shaped || !name.endsWith('.ts') || ![...folders, ...parts].every((p) => KEBAB_CASE.test(p))) found.push(file);
  }
  return found.sort();
}

/** Imports into a resource module from outside it that pass by its `index.ts`. */
export function deepImports(graph: ImportGraph, modules: readonly string[] = RESOURCE_MODULES): string[] {
  const found: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      const module = topLevelEntry(dep);
      if (modules.includes(module) && topLevelEntry(file) !== module && dep !== `${module}/index.ts`) found.push(`${file} -> ${dep}`);
    }
  }
  return found.sort();
}

const isProcess = (node: ts.Expression): boolean => ts.isIdentifier(node) && node.text === 'process';

/** `process.env` or `process['env']`. */
function readsProcessEnv(node: ts.Node): boolean {
  if (ts.isPropertyAccessExpression(node)) return node.name.text === 'env' && isProcess(node.expression);
  if (ts.isElementAccessExpression(node))
    return ts.isStringLiteralLike(node.argumentExpression) && node.argumentExpression.text === 'env' && isProcess(node.expression);
  return false;
}

/** `file:line` of each `process.env` (dotted or indexed) in the files of the graph, `config.ts` at the root aside. */
export function envReads(root: string, graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const file of [...graph.keys()].sort()) {
    if (file === ENV_READER) continue;
    const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (readsProcessEnv(node)) found.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found;
}

/** Checks the tree at `root` (paths in the report relative to it). */
export function checkCircles(root: string, modules: readonly string[] = RESOURCE_MODULES): CircleReport {
  const graph = importGraph(root);
  return {
    fileCircles: circles(graph),
    entryCircles: circles(groupGraph(graph, topLevelEntry)),
    deepImports: deepImports(graph, modules),
    envReads: envReads(root, graph),
    misnamedFiles: misnamedFiles(graph.keys(), modules),
  };
}

function main(dir: string): number {
  const root = resolve(dir);
  const report = checkCircles(root);
  const found = [
    ...report.fileCircles.map((c) => `import circle between files: ${c.map((f) => `${dir}/${f}`).join(' <-> ')}`),
    ...report.entryCircles.map((c) => `import circle between top-level entries of ${dir}/: ${c.join(' <-> ')}`),
    ...report.deepImports.map((i) => `import of another module's inside (import its index.ts): ${dir}/${i.replace(' -> ', ` -> ${dir}/`)}`),
    ...report.envReads.map((at) => `process.env read outside ${dir}/${ENV_READER}: ${dir}/${at}`),
    ...report.misnamedFiles.map(
      (f) => `file name off the rule (kebab-case; in a resource module <subject>.<role>.ts, docs/architecture.md): ${dir}/${f}`,
    ),
  ];
  if (found.length === 0) return 0;
  process.stderr.write(
    `${found.join('\n')}\ncheck-circles: ${found.length} problem(s); imports between modules point down only, into a module by its index.ts; files are named by one rule\n`,
  );
  return 1;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) process.exitCode = main(process.argv[2] ?? 'src');
