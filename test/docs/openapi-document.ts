import type { TSchema } from '@sinclair/typebox';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { WIRE_DATE } from '../../src/wire/schema-types.js';

export type Json = Record<string, any>;

const DOC_ID = 'https://ordergate.test/openapi.json';

/** JSON pointer escaping of one path segment (`/customer/` → `~1customer~1`). */
const pointer = (...segments: string[]): string => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/**
 * Validates values against schemas inside an OpenAPI document (refs and all), with Ajv's JSON
 * Schema 2020-12 dialect, which is OpenAPI 3.1's.
 */
export class DocumentValidator {
  readonly #ajv: Ajv2020;

  constructor(readonly doc: Json) {
    // OpenAPI keywords (example, x-…) are not JSON Schema: not strict.
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    (addFormats as unknown as (a: Ajv2020) => void)(this.#ajv);
    this.#ajv.addSchema({ ...doc, $id: DOC_ID });
  }

  /** Errors of a value against the schema at a JSON pointer of the document; [] when it conforms. */
  check(value: unknown, ...path: string[]): string[] {
    const validate = this.#ajv.compile({ $ref: `${DOC_ID}#/${pointer(...path)}` });
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }
}

/** The JSON type an OpenAPI property must show for a TypeBox property (null excluded). */
export function expectedType(schema: TSchema): string {
  const s = schema as Json;
  if (s[WIRE_DATE]) return 'date';
  if (Array.isArray(s.anyOf)) {
    const rest = s.anyOf.filter((x: Json) => x.type !== 'null');
    if (rest.every((x: Json) => typeof x.const === 'string')) return 'string';
    return rest.length === 1 ? expectedType(rest[0]) : 'any';
  }
  if (s.type === 'object' && s.properties) return 'object';
  return typeof s.type === 'string' ? s.type : 'any';
}

/** The JSON type an OpenAPI schema describes (refs to WireDate → date, to other schemas → object). */
export function documentedType(schema: Json, doc: Json): string {
  if (schema.$ref === '#/components/schemas/WireDate') return 'date';
  if (typeof schema.$ref === 'string') return documentedType(doc.components.schemas[String(schema.$ref).split('/').pop()!], doc);
  if (Array.isArray(schema.anyOf)) {
    const rest = schema.anyOf.filter((x: Json) => x.type !== 'null');
    return rest.length === 1 ? documentedType(rest[0], doc) : 'any';
  }
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null');
  return schema.type ?? 'any';
}
