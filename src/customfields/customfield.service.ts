import { customFieldNotDefined, customerNotFound } from '../errors.js';
import type { Store } from '../store/store.js';
import type { WriteDoor } from '../writes/write-door.js';
import { customFieldsETag, toCustomFields } from './customfield.mapping.js';
import { DefinitionCache, type DefinitionSet } from './customfield.definition-cache.js';
import { customFieldRepository as repo, type FieldRow, type ValuesRow } from './customfield.repository.js';
import type { CustomField } from './customfield.schemas.js';
import { isDefinitionNumber } from './customfield.types.js';
import { toWireValue } from './customfield.values.js';
import { writeValuesWrite, type WriteEntry, type WriteOptions } from './customfield.writes.js';

export type { WriteEntry, WriteOptions } from './customfield.writes.js';

/** A customer's fields and the ETag of their current state. */
export interface FieldsResult {
  readonly fields: CustomField[];
  readonly etag: string;
}

function toResult(customerId: string, rows: readonly FieldRow[]): FieldsResult {
  const first = rows[0];
  if (!first) throw customerNotFound(customerId);
  return { fields: toCustomFields(rows), etag: customFieldsETag(first.created_at, first.version) };
}

/** Stored values by number, from the hot read's aggregate. */
function valuesOf(vals: ValuesRow['vals']): Map<number, unknown> {
  const pairs = (typeof vals === 'string' ? JSON.parse(vals) : (vals ?? [])) as Array<[number, unknown]>;
  return new Map(pairs);
}

function assemble(defs: DefinitionSet, vals: ValuesRow['vals'], wanted: ReadonlySet<number> | undefined): CustomField[] {
  const values = valuesOf(vals);
  const out: CustomField[] = [];
  for (const d of defs.ordered) {
    if (wanted && !wanted.has(d.Number)) continue;
    const { Number: n, Label, IsReadOnly, FieldType, AllowedValues, Sort } = d;
    const v = values.get(n);
    out.push({
      Number: n,
      Label,
      IsReadOnly,
      FieldType,
      Value: v === undefined ? null : toWireValue(FieldType, v),
      AllowedValues: AllowedValues as string[] | null,
      Sort,
    });
  }
  return out;
}

/**
 * The read side, made once per process (its definitions cache serves the primary and a replica
 * alike: it is keyed by version): all fields of a customer or those with the given numbers
 * (unknown numbers are left out; empty means all). One precompiled statement reads the values and
 * both versions; definitions come from memory while their version is current, and a read that
 * races a definition change falls back to one consistent join.
 */
export function customFieldReader(): (store: Store, customerId: string, numbers?: readonly number[]) => Promise<FieldsResult> {
  const cache = new DefinitionCache();
  return async (store, customerId, numbers) => {
    const wanted = numbers && numbers.length > 0 ? new Set(numbers) : undefined;
    const row = await repo.readValues(store.reader, customerId);
    if (!row) throw customerNotFound(customerId);
    const defs = await cache.at(store.reader, Number(row.defs_version));
    if (defs) return { fields: assemble(defs, row.vals, wanted), etag: customFieldsETag(row.created_at, row.version) };
    // Numbers outside the definition range cannot match, and PostgreSQL would refuse them as integers.
    const inRange = wanted && [...wanted].filter(isDefinitionNumber);
    return toResult(customerId, await repo.readFields(store.reader, customerId, inRange));
  };
}

/**
 * Writes values of one customer, all or nothing (see customfield.writes.ts), through the write
 * door; answers once the write is committed. The request schema checked the request's shape before.
 */
export async function writeCustomFields(
  writes: WriteDoor,
  customerId: string,
  entries: readonly WriteEntry[],
  opts: WriteOptions,
): Promise<FieldsResult> {
  const bad = opts.unknownIsNotFound && entries.find((e) => e.number !== undefined && !isDefinitionNumber(e.number));
  if (bad) throw customFieldNotDefined(bad.number);
  const written = await writes.run(writeValuesWrite, { customerId, entries, opts });
  return { fields: toCustomFields(written.rows), etag: written.etag };
}
