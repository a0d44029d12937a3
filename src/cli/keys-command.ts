import { parseArgs } from 'node:util';
import { createKey, listKeys, parsePermissions, revokeKey } from '../auth/index.js';
import { CLI_KEY_ID, recordAudit } from '../audit/index.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

const iso = (ms: number): string => new Date(ms).toISOString();

export const keysCreateCommand: RunCommand = async (args, config) => {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, permissions: { type: 'string', default: 'all' } } });
  if (!values.name) throw new UsageError('--name is required');
  // `keys list` prints one space-separated line per key: a name is one word.
  if (!/^[A-Za-z0-9._@-]{1,64}$/.test(values.name)) throw new UsageError('--name takes 1 to 64 letters, digits or . _ @ -');
  // Arguments are checked before the store is opened: a usage mistake is reported as one.
  try {
    parsePermissions(values.permissions!);
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const created = await withStore(config, async (_store, writes) => {
    try {
      const key = await createKey(writes, values.name!, values.permissions!);
      await recordAudit(writes, { keyId: CLI_KEY_ID, action: 'key.create', resourceType: 'key', resourceIds: [key.id] });
      return key;
    } catch (err) {
      if (isUniqueViolation(err)) throw new Error('key id collision, run the command again', { cause: err });
      throw err;
    }
  });
  process.stdout.write(
    `created key ${created.id} (${values.name}) with permissions ${created.permissions.join(',')}; store it now, it is not shown again:\n`,
  );
  process.stdout.write(`${created.key}\n`);
};

export const keysListCommand: RunCommand = async (_args, config) => {
  const rows = await withStore(config, listKeys);
  for (const k of rows) {
    process.stdout.write(`${k.id} ${k.name} ${k.permissions} ${iso(k.created_at)}${k.revoked_at !== null ? ' revoked' : ''}\n`);
  }
};

export const keysRevokeCommand: RunCommand = async (args, config) => {
  const id = args[0];
  if (!id) throw new UsageError('the key id is required (see keys list)');
  const done = await withStore(config, async (_store, writes) => {
    const revoked = await revokeKey(writes, id);
    if (revoked) await recordAudit(writes, { keyId: CLI_KEY_ID, action: 'key.revoke', resourceType: 'key', resourceIds: [id] });
    return revoked;
  });
  if (!done) {
    process.stderr.write(`ordergate: no active key with id ${id} (see keys list)\n`);
    return 1;
  }
  process.stdout.write(`revoked ${id}\n`);
};
