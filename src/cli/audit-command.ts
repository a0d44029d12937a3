import { parseArgs } from 'node:util';
import { listAudit } from '../audit/index.js';
import { parseWireDate } from '../wire/dates.js';
import { UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

/** Entries read per query: the list is printed as it is read, at constant memory. */
const PAGE = 1000;

export const auditListCommand: RunCommand = async (args, config) => {
  const { values } = parseArgs({ args, options: { since: { type: 'string' } } });
  const since = values.since === undefined ? undefined : parseWireDate(values.since);
  if (values.since !== undefined && since === undefined) throw new UsageError(`--since: '${values.since}' is not a date`);
  await withStore(config, async (store) => {
    for (let after = 0; ;) {
      const page = await listAudit(store, after, PAGE, since);
      for (const e of page) {
        const ids = (JSON.parse(e.resource_ids) as string[]).join(',');
        process.stdout.write(`${e.sequence} ${new Date(e.at).toISOString()} ${e.key_id} ${e.action} ${e.resource_type} ${ids}\n`);
      }
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.sequence;
    }
  });
};
