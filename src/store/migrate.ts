import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import * as m001 from './migrations/001-initial.js';
import * as m003 from './migrations/003-custom-field-meta.js';
import * as m004 from './migrations/004-stored-names.js';
import * as m005 from './migrations/005-order-stamps.js';
import * as m006 from './migrations/006-audit-log.js';
import type { Store } from './store.js';

/** Every migration, in order. Names sort in application order; files never change once released. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': m001,
  '003-custom-field-meta': m003,
  '004-stored-names': m004,
  '005-order-stamps': m005,
  '006-audit-log': m006,
};

async function run(db: Kysely<Database>, disableTransactions: boolean): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    disableTransactions,
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Applies every pending migration, all or nothing; safe to run from several processes at once. */
export function migrateToLatest(store: Store): Promise<string[]> {
  return store.migrate((db, inOwnTransaction) => run(db, inOwnTransaction));
}
