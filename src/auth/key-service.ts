import type { ApiKeyRow } from '../store/database.js';
import { lockTable } from '../store/dialect-sql.js';
import type { Store } from '../store/store.js';
import { generateKey, hashKey, keyId, parsePermissions, type Permission } from './api-keys.js';
import { keyRepository } from './key-repository.js';

export interface CreatedKey {
  readonly id: string;
  readonly key: string;
  readonly permissions: Permission[];
}

/** Creates a key (or registers a given one, for ORDERGATE_BOOTSTRAP_KEY); returns it once. */
export async function createKey(store: Store, name: string, permissions: string, given?: string): Promise<CreatedKey> {
  const perms = parsePermissions(permissions);
  const key = given ?? generateKey();
  const row: ApiKeyRow = {
    id: keyId(key),
    name,
    key_hash: hashKey(key),
    permissions: perms.join(','),
    created_at: Date.now(),
    revoked_at: null,
  };
  await keyRepository.insert(store.db, row);
  return { id: row.id, key, permissions: perms };
}

/**
 * First start: when no key exists, registers ORDERGATE_BOOTSTRAP_KEY or a new key with `all,admin`.
 * Returns the generated key (to be shown once) or undefined when nothing was created or it was given.
 */
export async function ensureBootstrapKey(store: Store, bootstrapKey: string | undefined): Promise<{ created: boolean; key?: string }> {
  return store.writeTransaction(async (trx) => {
    // Instances starting together on one empty database must not each create a first key.
    await lockTable(store.dialect, trx, 'api_keys');
    if ((await keyRepository.count(trx)) > 0) return { created: false };
    const key = bootstrapKey ?? generateKey();
    await keyRepository.insert(trx, {
      id: keyId(key),
      name: 'bootstrap',
      key_hash: hashKey(key),
      permissions: 'all,admin',
      created_at: Date.now(),
      revoked_at: null,
    });
    return bootstrapKey ? { created: true } : { created: true, key };
  });
}

export const listKeys = (store: Store): Promise<ApiKeyRow[]> => keyRepository.list(store.db);

export const revokeKey = (store: Store, id: string): Promise<boolean> => keyRepository.revoke(store.db, id, Date.now());
