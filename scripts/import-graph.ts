import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** Imports between the .ts files under a root: file (relative to the root, `/`-separated) → the files it imports. */
export type ImportGraph = ReadonlyMap<string, ReadonlySet<string>>;

const posix = (path: string): string => path.split(sep).join('/');

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sourceFiles(path, out);
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** The file a relative specifier names (`./x.js` is the source `./x.ts`), or undefined when it is not one of ours. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const target = resolve(dirname(from), specifier.replace(/\.js$/, '.ts'));
  return [target, `${target}.ts`, join(target, 'index.ts')].find((c) => c.endsWith('.ts') && existsSync(c) && statSync(c).isFile());
}

/**
 * Reads every import of the tree: static and dynamic, `import type` and re-exports included (a type-only
 * import is still an arrow between modules). TypeScript's own pre-processor finds them, so imports
 * shown in comments or strings are not counted.
 */
export function importGraph(root: string): ImportGraph {
  const graph = new Map<string, Set<string>>();
  for (const file of sourceFiles(root)) {
    const deps = new Set<string>();
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const target = resolveSpecifier(file, fileName);
      if (target && target !== file) deps.add(posix(relative(root, target)));
    }
    graph.set(posix(relative(root, file)), deps);
  }
  return graph;
}

/** The top-level entry of `src/` a file belongs to: its first folder, or the file itself when it sits at the top. */
export const topLevelEntry = (file: string): string => file.split('/')[0]!;

/** The graph between units (e.g. top-level entries): an arrow where any file of one imports a file of another. */
export function groupGraph(graph: ImportGraph, unitOf: (file: string) => string): ImportGraph {
  const grouped = new Map<string, Set<string>>();
  for (const [file, deps] of graph) {
    const unit = unitOf(file);
    const targets = grouped.get(unit) ?? new Set<string>();
    for (const dep of deps) if (unitOf(dep) !== unit) targets.add(unitOf(dep));
    grouped.set(unit, targets);
  }
  return grouped;
}

/** Every circle of the graph: its strongly connected components of more than one node (Tarjan), each sorted. */
export function circles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}
