import type { CustomFieldDefRow } from '../store/database.js';
import type { FieldRow, VersionRow } from './customfield.repository.js';
import type { CustomField } from './customfield.schemas.js';
import type { CustomFieldDefinition, FieldType } from './customfield.types.js';
import { decodeValue } from './customfield.values.js';

const allowedOf = (json: string | null): string[] | null => (json === null ? null : (JSON.parse(json) as string[]));

export function toDefinition(row: CustomFieldDefRow): CustomFieldDefinition {
  return {
    Number: row.number,
    Label: row.label,
    FieldType: row.field_type as FieldType,
    IsReadOnly: row.is_read_only !== 0,
    AllowedValues: allowedOf(row.allowed_values),
    Sort: row.sort,
  };
}

export function toDefinitionRow(def: CustomFieldDefinition, now: number): CustomFieldDefRow {
  return {
    number: def.Number,
    label: def.Label,
    field_type: def.FieldType,
    is_read_only: def.IsReadOnly ? 1 : 0,
    allowed_values: def.AllowedValues === null ? null : JSON.stringify(def.AllowedValues),
    sort: def.Sort,
    updated_at: now,
  };
}

/** Rows of a fields read → the spec's CustomField objects (rows without a field are skipped). */
export function toCustomFields(rows: readonly FieldRow[]): CustomField[] {
  const out: CustomField[] = [];
  for (const r of rows) {
    if (r.number === null) continue;
    out.push({
      Number: r.number,
      Label: r.label!,
      IsReadOnly: r.is_read_only !== 0,
      FieldType: r.field_type as FieldType,
      Value: decodeValue(r.field_type!, r.value),
      AllowedValues: allowedOf(r.allowed_values),
      Sort: r.sort!,
    });
  }
  return out;
}

/**
 * The ETag of a customer's custom fields: its creation time (a re-created customer never reuses a
 * tag) and the version every value write bumps. Strong, so If-Match can use it.
 */
export const customFieldsETag = (createdAt: number, version: number): string => `"${Number(createdAt).toString(36)}-${Number(version)}"`;

export const etagOf = (row: VersionRow): string => customFieldsETag(row.created_at, row.custom_fields_version);
