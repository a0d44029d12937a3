import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

/** A temporary project with the repository's node_modules, so `@servicestack/client` resolves. */
export interface TempProject {
  readonly dir: string;
  write(name: string, text: string): void;
  /** Type-checks and emits with strict settings; returns the diagnostics as text (empty: clean). */
  compile(files: readonly string[]): string[];
  import<T>(compiledName: string): Promise<T>;
  remove(): void;
}

export function tempProject(): TempProject {
  const dir = mkdtempSync(join(tmpdir(), 'ordergate-dtos-'));
  symlinkSync(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
  const options: ts.CompilerOptions = {
    strict: true,
    noUncheckedIndexedAccess: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    outDir: join(dir, 'out'),
    rootDir: dir,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  };
  return {
    dir,
    write: (name, text) => writeFileSync(join(dir, name), text),
    compile(files) {
      const program = ts.createProgram(
        files.map((f) => join(dir, f)),
        options,
      );
      const emitted = program.emit();
      const diagnostics = [...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics];
      return diagnostics.map((d) => {
        const where =
          d.file && d.start !== undefined ? `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}: ` : '';
        return where + ts.flattenDiagnosticMessageText(d.messageText, '\n');
      });
    },
    import: <T>(compiledName: string) => import(pathToFileURL(join(dir, 'out', compiledName)).href) as Promise<T>,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
