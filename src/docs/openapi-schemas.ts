import type { TSchema } from '@sinclair/typebox';
import type { Casing } from '../wire/negotiation.js';
import { WIRE_DATE } from '../wire/schema-types.js';
import { wireName } from './samples.js';
import { enumValues, requiredFields, unwrapNullable } from './type-model.js';

type Json = Record<string, unknown>;

/** JSON Schema keywords that carry over to OpenAPI 3.1 unchanged. */
const KEPT = [
  'type', 'title', 'description', 'format', 'default', 'examples', 'enum', 'const', 'minimum', 'maximum',
  'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'pattern', 'minItems',
  'maxItems', 'uniqueItems', 'readOnly', 'writeOnly', 'deprecated',
] as const;

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });

/** Converts TypeBox schemas to OpenAPI 3.1 schemas, naming object types as the DTOs do. */
export class SchemaConverter {
  constructor(
    private readonly typeNames: ReadonlyMap<TSchema, string>,
    private readonly casing: Casing,
  ) {}

  /** A schema in place: named objects and dates become `$ref`s, `X | null` stays nullable. */
  convert(schema: TSchema): Json {
    const { schema: inner, nullable } = unwrapNullable(schema);
    const description = typeof schema.description === 'string' ? schema.description : inner.description;
    const named = this.typeNames.get(inner);
    let out: Json;
    if (inner[WIRE_DATE] === true) out = { ...ref('WireDate'), ...(description ? { description } : {}) };
    else if (named) out = { ...ref(named), ...(description && description !== inner.description ? { description } : {}) };
    else out = this.body(inner);
    if (!nullable) return out;
    if (typeof out.type === 'string' && out.$ref === undefined) return { ...out, type: [out.type, 'null'] };
    const { description: d, ...rest } = out;
    return { anyOf: [rest, { type: 'null' }], ...(d ? { description: d } : {}) };
  }

  /** The full definition of a schema (for `components.schemas` and anonymous objects). */
  body(schema: TSchema): Json {
    const s = schema as Json;
    const out: Json = {};
    for (const k of KEPT) if (s[k] !== undefined) out[k] = s[k];
    const values = enumValues(schema);
    if (values && s.enum === undefined) {
      // A union of string literals reads better, and generates better clients, as one enum.
      out.type = 'string';
      out.enum = values;
      delete out.const;
    } else if (Array.isArray(s.anyOf)) out.anyOf = (s.anyOf as TSchema[]).map((x) => this.convert(x));
    if (Array.isArray(s.allOf)) out.allOf = (s.allOf as TSchema[]).map((x) => this.convert(x));
    if (Array.isArray(s.oneOf)) out.oneOf = (s.oneOf as TSchema[]).map((x) => this.convert(x));
    if (s.items && typeof s.items === 'object') out.items = this.convert(s.items as TSchema);
    if (s.properties) {
      const props: Json = {};
      for (const [name, prop] of Object.entries(s.properties as Record<string, TSchema>)) props[wireName(name, this.casing)] = this.convert(prop);
      out.properties = props;
      const required = [...requiredFields(schema)].map((r) => wireName(r, this.casing));
      if (required.length > 0) out.required = required;
    }
    if (s.patternProperties) {
      out.type = 'object';
      out.additionalProperties = this.convert(Object.values(s.patternProperties as Json)[0] as TSchema);
    } else if (typeof s.additionalProperties === 'object') {
      out.additionalProperties = this.convert(s.additionalProperties as TSchema);
    }
    if (s.type === 'void' || s.type === 'undefined') delete out.type;
    return out;
  }

}

/** The date type every date field refers to: the forms the service reads and writes. */
export const WIRE_DATE_SCHEMA: Json = {
  description:
    'A date-time. Responses write ServiceStack\'s JSON date `\\/Date(<ms since 1970-01-01 UTC>-0000)\\/` ' +
    '(the raw JSON text carries the backslashes; the parsed string is `/Date(…)/`), or ISO 8601 with ' +
    '`?jsconfig=DateHandler:ISO8601` or `DATE_FORMAT=iso8601`. Requests may send `\\/Date(ms)\\/`, ' +
    '`\\/Date(ms±hhmm)\\/`, `/Date(…)/`, ISO 8601 date-times (no zone means UTC) or plain `yyyy-MM-dd` dates.',
  type: 'string',
  anyOf: [
    { title: 'ServiceStack JSON date', pattern: '^\\\\?/Date\\(-?\\d+([+-]\\d{4})?\\)\\\\?/$' },
    { title: 'ISO 8601 date-time', format: 'date-time' },
    { title: 'ISO 8601 date', format: 'date' },
  ],
  examples: ['/Date(1700000000000-0000)/', '2023-11-14T22:13:20.000Z', '2023-11-14'],
};
