import { CompiledQuery } from 'kysely';
import type { CustomerRow } from '../store/database.js';
import type { Dialect, Executor } from '../store/store.js';

/** What an identifier lookup returns: the rows and the watermark they were read under. */
export interface LookupResult {
  readonly committed: number;
  readonly rows: CustomerRow[];
}

type LookupRow = CustomerRow & { readonly sync_watermark: number | string };

/**
 * The hot search (by identifiers, no cursor) as one precompiled statement: the committed
 * watermark and the rows stamped at or below it, read together. One statement reads one snapshot
 * on both backends (SQLite's read transaction, PostgreSQL's statement snapshot under READ
 * COMMITTED), so this is the "watermark first, then only rows ≤ it" rule of store/sync-clock.ts in
 * one round trip. The LEFT JOIN from the single clock row keeps the watermark when nothing matches.
 * The stamp conditions use `modified_at + 0` for the reason given at searchQuery in
 * customer.repository.ts: only the two unique-index lookups are indexable.
 *
 * The SQL text is built once per dialect, identifier count and shape, and executed with parameters,
 * so that neither Kysely's builder nor (on SQLite, with the statement cache) the SQL parser runs per
 * request. Counts above CACHED_ARITY are built on demand and not kept.
 */
const CACHED_ARITY = 64;
const cache = new Map<string, string>();

function lookupSql(dialect: Dialect, count: number, withLowerBound: boolean): string {
  const key = `${dialect}:${count}:${withLowerBound ? 1 : 0}`;
  const cached = cache.get(key);
  if (cached !== undefined) return cached;
  const p = dialect === 'sqlite' ? () => '?' : ((n) => () => `$${++n}`)(0);
  const list = (): string => Array.from({ length: count }, p).join(', ');
  const ids = list();
  const externalIds = list();
  const lower = withLowerBound ? ` and c.modified_at + 0 > ${p()}` : '';
  const text =
    'select c.*, w.last_stamp as sync_watermark from sync_clock w left join customers c' +
    ` on (c.customer_id in (${ids}) or c.external_id in (${externalIds})) and c.modified_at + 0 <= w.last_stamp${lower}` +
    ' where w.id = 1 order by c.modified_at, c.customer_id';
  if (count <= CACHED_ARITY) cache.set(key, text);
  return text;
}

/** Customers matching any identifier (as id or external id), stamped in (modifiedAfter, watermark]. */
export async function lookupByIdentifiers(
  db: Executor,
  dialect: Dialect,
  identifiers: readonly string[],
  modifiedAfter: number | undefined,
): Promise<LookupResult> {
  const params: unknown[] = [...identifiers, ...identifiers];
  if (modifiedAfter !== undefined) params.push(modifiedAfter);
  const sqlText = lookupSql(dialect, identifiers.length, modifiedAfter !== undefined);
  const result = await db.executeQuery<LookupRow>(CompiledQuery.raw(sqlText, params));
  const all = result.rows;
  if (all.length === 0) throw new Error('sync_clock row missing');
  const committed = Number(all[0]!.sync_watermark);
  // No match: the one joined row carries only the watermark.
  const rows = all[0]!.customer_id === null ? [] : (all as CustomerRow[]);
  return { committed, rows };
}
