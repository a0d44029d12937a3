import type { ApiKeyRow } from '../store/database.js';
import type { Store } from '../store/store.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { generateKey, hashKey, keyId, parsePermissions, type Permission } from './api-keys.js';
import { keyRepository } from './key-repository.js';

export interface CreatedKey {
  readonly id: string;
  readonly key: string;
  readonly permissions: Permission[];
}

const keyRow = (key: string, name: string, permissions: string): ApiKeyRow => ({
  id: keyId(key),
  name,
  key_hash: hashKey(key),
  permissions,
  created_at: Date.now(),
  revoked_at: null,
});

/** Stores a key (only its hash crosses to the store). */
export const insertKeyWrite = defineWrite('key.insert', (unit, row: ApiKeyRow) => keyRepository.insert(unit.db, row));

/** Registers the first key unless one exists; tells whether it did. */
export const insertFirstKeyWrite = defineWrite('key.insert-first', async (unit, row: ApiKeyRow): Promise<boolean> => {
  // Instances starting together on one empty database must not each create a first key.
  await unit.sql.lockTable(unit.db, 'api_keys');
  if ((await keyRepository.count(unit.db)) > 0) return false;
  await keyRepository.insert(unit.db, row);
  return true;
});

export const revokeKeyWrite = defineWrite('key.revoke', (unit, id: string) => keyRepository.revoke(unit.db, id, Date.now()));

export const keyWrites = [insertKeyWrite, insertFirstKeyWrite, revokeKeyWrite];

/** Creates a key (or registers a given one); returns it once. */
export async function createKey(writes: WriteDoor, name: string, permissions: string, given?: string): Promise<CreatedKey> {
  const perms = parsePermissions(permissions);
  const key = given ?? generateKey();
  const row = keyRow(key, name, perms.join(','));
  await writes.run(insertKeyWrite, row);
  return { id: row.id, key, permissions: perms };
}

/**
 * First start: when no key exists, registers ORDERGATE_BOOTSTRAP_KEY or a new key with `all,admin`.
 * Returns the generated key (to be shown once) or undefined when nothing was created or it was given.
 */
export async function ensureBootstrapKey(writes: WriteDoor, bootstrapKey: string | undefined): Promise<{ created: boolean; key?: string }> {
  const key = bootstrapKey ?? generateKey();
  if (!(await writes.run(insertFirstKeyWrite, keyRow(key, 'bootstrap', 'all,admin')))) return { created: false };
  return bootstrapKey ? { created: true } : { created: true, key };
}

export const listKeys = (store: Store): Promise<ApiKeyRow[]> => keyRepository.list(store.db);

export const revokeKey = (writes: WriteDoor, id: string): Promise<boolean> => writes.run(revokeKeyWrite, id);
