import { parseArgs } from 'node:util';
import { exportCustomers, importCustomers } from '../customers/index.js';
import { formatWireDate, parseWireDate } from '../wire/dates.js';
import { UsageError, type RunCommand } from './command.js';
import { importFile, importProgress, reportImport } from './import-report.js';
import { BULK_LOAD_ROWS } from '../bulk/import-report.js';
import { withStore } from './with-store.js';

export const customersImportCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'skip-invalid': { type: 'boolean', default: false } },
  });
  const { file, format } = importFile(positionals);
  const started = Date.now();
  const progress = importProgress();
  const report = await withStore(config, async (store, writes) => {
    try {
      const done = await importCustomers(store, writes, file, {
        format,
        skipInvalid: values['skip-invalid'] === true,
        onProgress: progress.onProgress,
      });
      if (done.imported >= BULK_LOAD_ROWS) await store.settleTextIndexes();
      return done;
    } finally {
      progress.stop();
    }
  });
  return reportImport(report, 'customers', values['skip-invalid'] === true, started);
};

export const customersExportCommand: RunCommand = async (args, config) => {
  const { values } = parseArgs({ args, options: { 'modified-after': { type: 'string' } } });
  const after = values['modified-after'];
  const modifiedAfter = after === undefined ? undefined : parseWireDate(after);
  if (after !== undefined && modifiedAfter === undefined) throw new UsageError(`--modified-after: '${after}' is not a date`);
  const result = await withStore(config, (store) => exportCustomers(store, process.stdout, modifiedAfter));
  if (!result.closed)
    process.stderr.write(
      `exported ${result.count} customers; X-Sync-Watermark ${formatWireDate(result.watermark, 'iso8601')} (${result.watermark})\n`,
    );
};
