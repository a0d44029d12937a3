import {
  type CustomFieldDefinition,
  defineCustomField,
  DefineCustomFieldRequest,
  deleteCustomField,
  FIELD_TYPES,
  listDefinitions,
} from '../customfields/index.js';
import { AppError } from '../errors.js';
import { parseJsvList } from '../wire/jsv.js';
import { validRequest } from '../wire/request-validation.js';
import { parseCommandArgs, UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

const describeDefinition = (d: CustomFieldDefinition): string =>
  [
    String(d.Number),
    d.FieldType,
    JSON.stringify(d.Label),
    `sort ${d.Sort}`,
    ...(d.IsReadOnly ? ['read-only'] : []),
    ...(d.AllowedValues ? [`allowed ${d.AllowedValues.map((v) => (v.includes(',') ? JSON.stringify(v) : v)).join(',')}`] : []),
  ].join(' ');

// What `define` calls the fields of a definition: its flags, not the API's property names.
const DEFINE_FLAGS: Readonly<Record<string, string>> = {
  Number: 'the field number',
  Label: '--label',
  FieldType: '--type',
  IsReadOnly: '--read-only',
  AllowedValues: '--allowed',
  Sort: '--sort',
};
const inCliWords = (text: string): string => text.replace(/'([A-Za-z]+)'/g, (quoted, name: string) => DEFINE_FLAGS[name] ?? quoted);

/**
 * A refusal of the service in the CLI's words: invalid arguments are a usage mistake (exit 2 with
 * the usage line); a conflict or an unknown field is printed alone (exit 1).
 */
async function reportingRefusals(work: () => Promise<void>): Promise<number | void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof AppError) || err.kind === 'internal' || err.kind === 'unavailable') throw err;
    const details = err.fieldErrors.length > 1 ? err.fieldErrors.map((f) => `  ${inCliWords(f.message)} (${f.errorCode})`) : [];
    const message = [`${inCliWords(err.message)} (${err.code})`, ...details].join('\n');
    if (err.kind === 'validation') throw new UsageError(message);
    process.stderr.write(`ordergate: ${message}\n`);
    return 1;
  }
}

function wholeNumber(text: string | undefined, what: string): number | undefined {
  if (text === undefined) return undefined;
  if (!/^-?\d{1,10}$/.test(text.trim())) throw new UsageError(`${what} takes a whole number`);
  return Number(text);
}

export const customFieldsDefineCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: {
      label: { type: 'string' },
      type: { type: 'string' },
      'read-only': { type: 'boolean' },
      allowed: { type: 'string' },
      sort: { type: 'string' },
    },
  });
  if (positionals.length !== 1) throw new UsageError('give exactly one field number');
  const number = wholeNumber(positionals[0], 'the field number')!;
  if (values.label === undefined || values.type === undefined) throw new UsageError('give --label and --type');
  if (!FIELD_TYPES.some((t) => t.toLowerCase() === values.type!.trim().toLowerCase())) {
    throw new UsageError(`--type takes one of ${FIELD_TYPES.join(', ')}; got '${values.type}'`);
  }
  const request = {
    Number: number,
    Label: values.label,
    FieldType: values.type,
    IsReadOnly: values['read-only'] ?? false,
    AllowedValues: values.allowed === undefined ? null : parseJsvList(values.allowed),
    Sort: wholeNumber(values.sort, '--sort'),
  };
  return withStore(config, (_store, writes) =>
    reportingRefusals(async () => {
      const { definition, created } = await defineCustomField(writes, validRequest(DefineCustomFieldRequest, request));
      process.stdout.write(`${created ? 'created' : 'updated'}: ${describeDefinition(definition)}\n`);
    }),
  );
};

export const customFieldsListCommand: RunCommand = async (_args, config) => {
  const defs = await withStore(config, listDefinitions);
  for (const d of defs) process.stdout.write(`${describeDefinition(d)}\n`);
};

export const customFieldsDeleteCommand: RunCommand = async (args, config) => {
  if (args.length !== 1) throw new UsageError('give exactly one field number');
  const number = wholeNumber(args[0], 'the field number')!;
  return withStore(config, (_store, writes) =>
    reportingRefusals(async () => {
      await deleteCustomField(writes, number);
      process.stdout.write(`deleted custom field ${number} and its values\n`);
    }),
  );
};
