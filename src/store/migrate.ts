import { Migrator, type Migration, type MigrationResultSet } from 'kysely';
import * as m001 from './migrations/001-initial.js';
import type { Store } from './store.js';

/** Every migration, in order. Names sort in application order; files never change once released. */
const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': m001,
};

/** Applies every pending migration; safe to run from several processes at once (Kysely locks). */
export async function migrateToLatest(store: Store): Promise<string[]> {
  const migrator = new Migrator({
    db: store.db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
