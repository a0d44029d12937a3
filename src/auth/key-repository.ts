import type { ApiKeyRow } from '../store/database.js';
import type { Executor } from '../store/store.js';

/** All SQL about API keys. */
export const keyRepository = {
  async insert(db: Executor, row: ApiKeyRow): Promise<void> {
    await db.insertInto('api_keys').values(row).execute();
  },
  findByHash(db: Executor, keyHash: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
  },
  findById(db: Executor, id: string): Promise<ApiKeyRow | undefined> {
    return db.selectFrom('api_keys').selectAll().where('id', '=', id).executeTakeFirst();
  },
  list(db: Executor): Promise<ApiKeyRow[]> {
    return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  },
  async count(db: Executor): Promise<number> {
    const row = await db
      .selectFrom('api_keys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  },
  /** Unrevoked keys with `admin`, other than `exceptId`. */
  async countOtherAdmins(db: Executor, exceptId: string): Promise<number> {
    const rows = await db
      .selectFrom('api_keys')
      .select(['id', 'permissions'])
      .where('revoked_at', 'is', null)
      .where('id', '!=', exceptId)
      .execute();
    return rows.filter((r) => r.permissions.split(',').includes('admin')).length;
  },
  /** Stamps the instant the key is refused from; false when there is no unrevoked key with this id. */
  async revoke(db: Executor, id: string, refusedFrom: number): Promise<boolean> {
    const res = await db
      .updateTable('api_keys')
      .set({ revoked_at: refusedFrom })
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
  /** Moves LastUsedAt forward (never back: instances may report out of order). */
  async markUsed(db: Executor, id: string, at: number): Promise<void> {
    await db
      .updateTable('api_keys')
      .set({ last_used_at: at })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', at)]))
      .execute();
  },
};
