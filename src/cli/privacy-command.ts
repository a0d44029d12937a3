import { CLI_KEY_ID } from '../audit/index.js';
import { auditBankRead, type BankData } from '../orders/index.js';
import { eraseCustomer, exportCustomerData } from '../privacy/index.js';
import { toJson } from '../wire/serializer.js';
import { parseCommandArgs, refusalInCliTerms, UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

export const exportDataCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: { 'include-bank-data': { type: 'boolean', default: false } },
  });
  const customerId = positionals[0];
  if (!customerId || positionals.length > 1) throw new UsageError('give one CustomerId');
  const bank: BankData = values['include-bank-data'] ? 'revealed' : 'masked';
  const data = await withStore(config, (store, writes) =>
    refusalInCliTerms(() =>
      exportCustomerData(store, writes, customerId, {
        keyId: CLI_KEY_ID,
        bank,
        auditBankRead: (orders) => auditBankRead(writes, CLI_KEY_ID, bank, orders),
      }),
    ),
  );
  process.stdout.write(`${toJson(data, config.jsonCasing, config.dateFormat, true)}\n`);
};

export const eraseCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({ args, allowPositionals: true, options: { yes: { type: 'boolean', default: false } } });
  const customerId = positionals[0];
  if (!customerId || positionals.length > 1) throw new UsageError('give one CustomerId');
  if (!values.yes)
    throw new UsageError(`erasing ${customerId} cannot be undone (only backups made before keep the data); add --yes to erase`);
  const answer = await withStore(config, (store, writes) =>
    refusalInCliTerms(() =>
      eraseCustomer(store, writes, customerId, CLI_KEY_ID, (message) => void process.stderr.write(`ordergate: ${message}\n`)),
    ),
  );
  process.stdout.write(`erased ${answer.CustomerId} at ${new Date(answer.ErasedAt).toISOString()}\n`);
};
