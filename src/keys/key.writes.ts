import { recordAuditWrite } from '../audit/index.js';
import { generateKey, keyRepository, keyRow, type Permission, refusedFromNow } from '../auth/index.js';
import { keyNotFound, lastAdminKey } from '../errors.js';
import type { ApiKeyRow } from '../store/database.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';

// The key writes that are audited in their own transaction. They live above auth/ and audit/ (the
// wire layer authenticates through auth/, and audit/ serves its log through the wire layer).

/** The KeyId the first key's creation is recorded under in the audit log. */
export const BOOTSTRAP_KEY_ID = 'bootstrap';

/** Stores a key and records who created it, in one transaction. */
export const createKeyWrite = defineWrite('key.create', async (unit, c: { actor: string; row: ApiKeyRow }): Promise<void> => {
  await keyRepository.insert(unit.db, c.row);
  await recordAuditWrite.run(unit, { keyId: c.actor, action: 'key.create', resourceType: 'key', resourceIds: [c.row.id] });
});

/** Registers the first key unless one exists, recorded under `bootstrap`; tells whether it did. */
export const insertFirstKeyWrite = defineWrite('key.insert-first', async (unit, row: ApiKeyRow): Promise<boolean> => {
  // Instances starting together on one empty database must not each create a first key.
  await unit.db.lockTable('api_keys');
  if ((await keyRepository.count(unit.db)) > 0) return false;
  await keyRepository.insert(unit.db, row);
  await recordAuditWrite.run(unit, { keyId: BOOTSTRAP_KEY_ID, action: 'key.create', resourceType: 'key', resourceIds: [row.id] });
  return true;
});

/**
 * Revokes a key over the API: the last unrevoked key with `admin` stays (no one could manage keys
 * any more), and the revocation is recorded in the same transaction. A revoked key is answered as
 * it is. Returns the row as revoked.
 */
export const revokeKeyAsWrite = defineWrite('key.revoke-as', async (unit, r: { actor: string; id: string }): Promise<ApiKeyRow> => {
  // Two revocations at once must not each leave the other's key as the last admin key.
  await unit.db.lockTable('api_keys');
  const row = await keyRepository.findById(unit.db, r.id);
  if (!row) throw keyNotFound(r.id);
  if (row.revoked_at !== null) return row;
  if (row.permissions.split(',').includes('admin') && (await keyRepository.countOtherAdmins(unit.db, r.id)) === 0) throw lastAdminKey(r.id);
  const refusedFrom = refusedFromNow();
  await keyRepository.revoke(unit.db, r.id, refusedFrom);
  await recordAuditWrite.run(unit, { keyId: r.actor, action: 'key.revoke', resourceType: 'key', resourceIds: [r.id] });
  return { ...row, revoked_at: refusedFrom };
});

export const keyApiWrites = [createKeyWrite, insertFirstKeyWrite, revokeKeyAsWrite];

/** Creates a key on behalf of `actor` (the creating key's id), audited with it; returns the row and the key, shown once. */
export async function createKeyAs(
  writes: WriteDoor,
  actor: string,
  name: string,
  permissions: readonly Permission[],
): Promise<{ row: ApiKeyRow; key: string }> {
  const key = generateKey();
  const row = keyRow(key, name, [...new Set(permissions)].join(','));
  await writes.run(createKeyWrite, { actor, row });
  return { row, key };
}

export const revokeKeyAs = (writes: WriteDoor, actor: string, id: string): Promise<ApiKeyRow> =>
  writes.run(revokeKeyAsWrite, { actor, id });

/**
 * First start: when no key exists, registers ORDERGATE_BOOTSTRAP_KEY or a new key with `all,admin`.
 * Returns the generated key (to be shown once) or undefined when nothing was created or it was given.
 */
export async function ensureBootstrapKey(writes: WriteDoor, bootstrapKey: string | undefined): Promise<{ created: boolean; key?: string }> {
  const key = bootstrapKey ?? generateKey();
  if (!(await writes.run(insertFirstKeyWrite, keyRow(key, 'bootstrap', 'all,admin')))) return { created: false };
  return bootstrapKey ? { created: true } : { created: true, key };
}
