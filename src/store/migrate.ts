import { Migrator, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import type { Database } from './database.js';
import * as m001 from './migrations/001-initial.js';
import * as m003 from './migrations/003-custom-field-meta.js';
import * as m004 from './migrations/004-stored-names.js';
import * as m005 from './migrations/005-order-stamps.js';
import * as m006 from './migrations/006-audit-log.js';
import * as m007 from './migrations/007-events.js';
import * as m008 from './migrations/008-erasure.js';
import * as m009 from './migrations/009-shown-confirmation.js';
import * as m010 from './migrations/010-key-last-used.js';
import * as m011 from './migrations/011-text-search.js';
import * as m012 from './migrations/012-delivery-error.js';
import * as m013 from './migrations/013-order-content.js';
import * as m014 from './migrations/014-text-prefixes.js';
import * as m015 from './migrations/015-order-life.js';
import * as m016 from './migrations/016-order-status-index.js';
import * as m017 from './migrations/017-event-order.js';
import * as m018 from './migrations/018-order-status-words.js';
import * as m019 from './migrations/019-text-index-deletes.js';
import type { Store } from './store.js';

/** Every migration, in order. Names sort in application order; files never change once released. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001-initial': m001,
  '003-custom-field-meta': m003,
  '004-stored-names': m004,
  '005-order-stamps': m005,
  '006-audit-log': m006,
  '007-events': m007,
  '008-erasure': m008,
  '009-shown-confirmation': m009,
  '010-key-last-used': m010,
  '011-text-search': m011,
  '012-delivery-error': m012,
  '013-order-content': m013,
  '014-text-prefixes': m014,
  '015-order-life': m015,
  '016-order-status-index': m016,
  '017-event-order': m017,
  '018-order-status-words': m018,
  '019-text-index-deletes': m019,
};

const byCodePoints = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

async function run(db: Kysely<Database>, disableTransactions: boolean, migrations: Readonly<Record<string, Migration>>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: 'schema_migrations',
    migrationLockTableName: 'schema_migrations_lock',
    disableTransactions,
    // The order Kysely applies pending migrations in (code points); its default for ordering the
    // applied ones, localeCompare, disagrees where case differs and loads ICU's collation data
    // into every process that starts (about 6 MB of RSS).
    nameComparator: byCodePoints,
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * Applies every pending migration (of MIGRATIONS; tests pass others), all or nothing; safe to run
 * from several processes at once, also through a pooler in transaction mode (store.migrate).
 */
export function migrateToLatest(store: Store, migrations: Readonly<Record<string, Migration>> = MIGRATIONS): Promise<string[]> {
  return store.migrate((db, inOwnTransaction) => run(db, inOwnTransaction, migrations));
}
