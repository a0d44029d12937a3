import { parseArgs } from 'node:util';
import type { OrderRow } from '../store/database.js';
import { exportOrders, importOrders, type OrderExportFormat } from '../orders/index.js';
import { formatWireDate, parseWireDate } from '../wire/dates.js';
import { UsageError, type RunCommand } from './command.js';
import { importFile, importProgress, reportImport } from './import-report.js';
import { progressBar } from './progress.js';
import { BULK_LOAD_ROWS } from '../bulk/import-report.js';
import { withStore } from './with-store.js';

const STATUSES: ReadonlyArray<OrderRow['status']> = ['Open', 'Confirmed', 'Cancelled'];
const FORMATS: readonly OrderExportFormat[] = ['jsonl', 'csv', 'csv-lines'];

/** `--status Open,confirmed`: the statuses named (any casing), or a usage mistake naming the flag. */
function statusesOf(text: string): Array<OrderRow['status']> {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const statuses = names.map((n) => STATUSES.find((s) => s.toLowerCase() === n.toLowerCase()));
  const unknown = names.filter((_, i) => statuses[i] === undefined);
  if (names.length === 0 || unknown.length > 0) throw new UsageError(`--status: '${text}' is not a list of ${STATUSES.join(', ')}`);
  return [...new Set(statuses as Array<OrderRow['status']>)];
}

export const ordersImportCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { 'skip-invalid': { type: 'boolean', default: false } },
  });
  const { file, format } = importFile(positionals);
  const skipInvalid = values['skip-invalid'] === true;
  const started = Date.now();
  const progress = importProgress();
  const report = await withStore(config, async (store, writes) => {
    try {
      const done = await importOrders(store, writes, file, {
        format,
        skipInvalid,
        defaultCurrency: config.defaultCurrency,
        onProgress: progress.onProgress,
      });
      if (done.imported >= BULK_LOAD_ROWS) await store.settleTextIndexes();
      return done;
    } finally {
      progress.stop();
    }
  });
  return reportImport(report, 'orders', skipInvalid, started);
};

export const ordersExportCommand: RunCommand = async (args, config) => {
  const { values } = parseArgs({
    args,
    options: {
      status: { type: 'string' },
      'modified-after': { type: 'string' },
      format: { type: 'string', default: 'jsonl' },
      'include-bank-data': { type: 'boolean', default: false },
    },
  });
  const statuses = values.status === undefined ? undefined : statusesOf(values.status);
  const after = values['modified-after'];
  const modifiedAfter = after === undefined ? undefined : parseWireDate(after);
  if (after !== undefined && modifiedAfter === undefined) throw new UsageError(`--modified-after: '${after}' is not a date`);
  const format = FORMATS.find((f) => f === values.format);
  if (!format) throw new UsageError(`--format: '${values.format}' is not one of ${FORMATS.join(', ')}`);
  let bar: ReturnType<typeof progressBar> | undefined;
  const result = await withStore(config, async (store, writes) => {
    try {
      return await exportOrders(store, writes, process.stdout, {
        statuses,
        modifiedAfter,
        format,
        bank: values['include-bank-data'] === true ? 'revealed' : 'masked',
        onProgress: (done, total) => (bar ??= progressBar('exporting (orders)', total)).tick(done),
      });
    } finally {
      bar?.stop();
    }
  });
  if (!result.closed)
    process.stderr.write(
      `exported ${result.count} orders; X-Sync-Watermark ${formatWireDate(result.watermark, 'iso8601')} (${result.watermark})\n`,
    );
};
