import { importFormatOf, type ImportFormat } from '../bulk/import-read.js';
import type { ImportReport } from '../bulk/import-report.js';
import { existingFile, UsageError } from './command.js';
import { progressBar } from './progress.js';

/** Invalid rows listed one by one before the rest are only counted. */
const LISTED = 50;

function printProblems(report: ImportReport): void {
  for (const p of report.fileProblems) process.stderr.write(`header: ${p}\n`);
  for (const { line, problems } of report.invalid.slice(0, LISTED)) process.stderr.write(`line ${line}: ${problems.join('; ')}\n`);
  if (report.invalidCount > LISTED) process.stderr.write(`… and ${report.invalidCount - LISTED} more invalid rows\n`);
}

/** The one file an import command names: an existing .csv or .jsonl file. */
export function importFile(positionals: readonly string[]): { file: string; format: ImportFormat } {
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError('give exactly one file');
  const format = importFormatOf(file);
  if (!format) throw new UsageError(`${file}: the file name must end in .csv or .jsonl`);
  return { file: existingFile(file), format };
}

/** The progress of an import's two passes on stderr: one bar for checking, one for writing. */
export function importProgress(): { onProgress: (phase: 'check' | 'write', done: number, total: number) => void; stop(): void } {
  let bar: ReturnType<typeof progressBar> | undefined;
  let phase = '';
  return {
    onProgress: (p, done, total) => {
      if (p !== phase) {
        bar?.stop();
        bar = progressBar(p === 'check' ? 'checking (bytes)' : 'importing (rows)', total);
        phase = p;
      }
      bar!.tick(done);
    },
    stop: () => bar?.stop(),
  };
}

/** Prints an import's outcome, worded alike by every import command; answers the exit code. */
export function reportImport(report: ImportReport, noun: string, skipInvalid: boolean, started: number): number {
  printProblems(report);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (report.fileProblems.length > 0) {
    process.stderr.write('nothing imported: fix the header\n');
    return 1;
  }
  if (report.invalidCount > 0 && report.imported === 0 && !skipInvalid) {
    process.stderr.write(
      `nothing imported: ${report.invalidCount} of ${report.records} rows are invalid (fix them, or pass --skip-invalid to import the others)\n`,
    );
    return 1;
  }
  if (report.failure) {
    process.stderr.write(`import stopped after ${report.imported} rows: ${report.failure}; running the import again is safe\n`);
    return 1;
  }
  const skipped = report.invalidCount > 0 ? `, ${report.invalidCount} invalid rows skipped` : '';
  process.stdout.write(`imported ${report.imported} ${noun} from ${report.records} rows${skipped} in ${seconds} s\n`);
  return 0;
}
