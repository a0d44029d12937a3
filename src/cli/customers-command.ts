import { parseArgs } from 'node:util';
import { exportCustomers } from '../customers/customer.export.js';
import { importCustomers, type ImportReport } from '../customers/customer.import.js';
import { importFormatOf } from '../customers/import-read.js';
import { formatWireDate, parseWireDate } from '../wire/dates.js';
import { existingFile, UsageError, type Command } from './command.js';
import { progressBar } from './progress.js';
import { withStore } from './with-store.js';

/** Invalid rows listed one by one before the rest are only counted. */
const LISTED = 50;

function printProblems(report: ImportReport): void {
  for (const p of report.fileProblems) process.stderr.write(`header: ${p}\n`);
  for (const { line, problems } of report.invalid.slice(0, LISTED)) process.stderr.write(`line ${line}: ${problems.join('; ')}\n`);
  if (report.invalidCount > LISTED) process.stderr.write(`… and ${report.invalidCount - LISTED} more invalid rows\n`);
}

export const customersImportCommand: Command = {
  words: ['customers', 'import'],
  usage: 'customers import <file.csv|file.jsonl> [--skip-invalid]',
  summary: 'upsert customers by CustomerId; every row is checked first, a bad file imports nothing',
  run: async (args, config) => {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { 'skip-invalid': { type: 'boolean', default: false } } });
    const file = positionals[0];
    if (!file || positionals.length > 1) throw new UsageError('give exactly one file');
    const format = importFormatOf(file);
    if (!format) throw new UsageError(`${file}: the file name must end in .csv or .jsonl`);
    existingFile(file);
    const started = Date.now();
    const report = await withStore(config, async (store, writes) => {
      let bar: ReturnType<typeof progressBar> | undefined;
      let phase = '';
      const report = await importCustomers(store, writes, file, {
        format,
        skipInvalid: values['skip-invalid'] === true,
        onProgress: (p, done, total) => {
          if (p !== phase) {
            bar?.stop();
            bar = progressBar(p === 'check' ? 'checking (bytes)' : 'importing (rows)', total);
            phase = p;
          }
          bar!.tick(done);
        },
      });
      bar?.stop();
      return report;
    });
    printProblems(report);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (report.fileProblems.length > 0) {
      process.stderr.write('nothing imported: fix the header\n');
      return 1;
    }
    if (report.invalidCount > 0 && report.imported === 0 && !values['skip-invalid']) {
      process.stderr.write(`nothing imported: ${report.invalidCount} of ${report.records} rows are invalid (fix them, or pass --skip-invalid to import the others)\n`);
      return 1;
    }
    if (report.failure) {
      process.stderr.write(`import stopped after ${report.imported} rows: ${report.failure}; running the import again is safe\n`);
      return 1;
    }
    const skipped = report.invalidCount > 0 ? `, ${report.invalidCount} invalid rows skipped` : '';
    process.stdout.write(`imported ${report.imported} customers from ${report.records} rows${skipped} in ${seconds} s\n`);
  },
};

export const customersExportCommand: Command = {
  words: ['customers', 'export'],
  usage: 'customers export [--modified-after DATE]',
  summary: 'every customer as JSON Lines on stdout, in sync order; the sync watermark on stderr',
  run: async (args, config) => {
    const { values } = parseArgs({ args, options: { 'modified-after': { type: 'string' } } });
    const after = values['modified-after'];
    const modifiedAfter = after === undefined ? undefined : parseWireDate(after);
    if (after !== undefined && modifiedAfter === undefined) throw new UsageError(`--modified-after: '${after}' is not a date`);
    const result = await withStore(config, (store) => exportCustomers(store, process.stdout, modifiedAfter));
    if (!result.closed) process.stderr.write(`exported ${result.count} customers; X-Sync-Watermark ${formatWireDate(result.watermark, 'iso8601')} (${result.watermark})\n`);
  },
};

/** CLI commands of this module. */
export const customerCommands: readonly Command[] = [customersImportCommand, customersExportCommand];
