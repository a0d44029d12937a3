import type { ApiKeyRow } from '../store/database.js';
import type { Store } from '../store/store.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { generateKey, hashKey, keyId, parsePermissions, REVOCATION_DELAY_MS, type Permission } from './key.model.js';
import { keyRepository } from './key.repository.js';

export interface CreatedKey {
  readonly id: string;
  readonly key: string;
  readonly permissions: Permission[];
}

export const keyRow = (key: string, name: string, permissions: string): ApiKeyRow => ({
  id: keyId(key),
  name,
  key_hash: hashKey(key),
  permissions,
  created_at: Date.now(),
  revoked_at: null,
  last_used_at: null,
});

/** Stores a key (only its hash crosses to the store). */
export const insertKeyWrite = defineWrite('key.insert', (unit, row: ApiKeyRow) => keyRepository.insert(unit.db, row));

/** The instant a revocation written now takes effect (see REVOCATION_DELAY_MS). */
export const refusedFromNow = (): number => Date.now() + REVOCATION_DELAY_MS;

export const revokeKeyWrite = defineWrite('key.revoke', (unit, id: string) => keyRepository.revoke(unit.db, id, refusedFromNow()));

/** Moves a key's LastUsedAt forward. */
export const markKeyUsedWrite = defineWrite('key.used', (unit, u: { id: string; at: number }) =>
  keyRepository.markUsed(unit.db, u.id, u.at),
);

export const keyWrites = [insertKeyWrite, revokeKeyWrite, markKeyUsedWrite];

/** Creates a key (or registers a given one); returns it once. */
export async function createKey(writes: WriteDoor, name: string, permissions: string, given?: string): Promise<CreatedKey> {
  const perms = parsePermissions(permissions);
  const key = given ?? generateKey();
  const row = keyRow(key, name, perms.join(','));
  await writes.run(insertKeyWrite, row);
  return { id: row.id, key, permissions: perms };
}

export const listKeys = (store: Store): Promise<ApiKeyRow[]> => keyRepository.list(store.db);

/** Revokes a key: refused by every process from REVOCATION_DELAY_MS after this write on. */
export const revokeKey = (writes: WriteDoor, id: string): Promise<boolean> => writes.run(revokeKeyWrite, id);
