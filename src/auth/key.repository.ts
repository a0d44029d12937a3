import type { ApiKeyRow } from '../store/database.js';
import type { DbHandle } from '../store/store.js';

/** All SQL about API keys. */
export const keyRepository = {
  async insert(db: DbHandle, row: ApiKeyRow): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  },
  findByHash(db: DbHandle, keyHash: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  },
  findById(db: DbHandle, id: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },
  list(db: DbHandle): Promise<ApiKeyRow[]> {
    return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  },
  async count(db: DbHandle): Promise<number> {
    const row = await db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
  /** Unrevoked keys with `admin`, other than `exceptId`. */
  async countOtherAdmins(db: DbHandle, exceptId: string): Promise<number> {
    const rows = await db
      .selectFrom('api_keys')
      .select(['id', 'permissions'])
      .where('revoked_at', 'is', null)
      .where('id', '!=', exceptId)
      .execute();
    return rows.filter((r) => r.permissions.split(',').includes('admin')).length;
  },
  /** Stamps the instant the key is refused from; false when there is no unrevoked key with this id. */
  async revoke(db: DbHandle, id: string, refusedFrom: number): Promise<boolean> {
    const res = await db
      .updateTable('api_keys')
      .set({ revoked_at: refusedFrom })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
  /** Moves LastUsedAt forward (never back: instances may report out of order). */
  async markUsed(db: DbHandle, id: string, at: number): Promise<void> {
    await db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  },
};
