/** What a backup or restore did, for the operator (one line). */
export interface BackupReport {
  readonly file: string;
  /** What was checked or used, e.g. the row counts of a SQLite copy or `pg_dump custom format`. */
  readonly detail: string;
}

/** Brings a restored store up to this release's schema and stored form (a backup may be older). */
export type MigrateStore = (databaseUrl: string) => Promise<void>;

// One line for the operator: SQLite's integrity check reports several.
export const reason = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, '; ').slice(0, 500);

export const refused = (file: string, why: string): Error => new Error(`refusing to restore ${file}: ${why}; the store was not changed`);
