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
  list(db: Executor): Promise<ApiKeyRow[]> {
    return db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute();
  },
  async count(db: Executor): Promise<number> {
    const row = await db.selectFrom('api_keys').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  },
  async revoke(db: Executor, id: string, at: number): Promise<boolean> {
    const res = await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) > 0;
  },
};
