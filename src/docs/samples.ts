import type { TSchema } from '@sinclair/typebox';
import { escapeWcfDates, formatWireDate, type DateStyle } from '../wire/dates.js';
import type { Casing } from '../wire/negotiation.js';
import { WIRE_DATE } from '../wire/schema-types.js';
import { enumValues, unwrapNullable } from './type-model.js';

type Json = Record<string, unknown>;

/** The instant every sample date shows (2023-11-14T22:13:20Z). */
export const SAMPLE_DATE_MS = 1_700_000_000_000;

/** How samples are written: the deployment's casing and date style. */
export interface SampleStyle {
  readonly casing: Casing;
  readonly dateStyle: DateStyle;
}

export const wireName = (name: string, casing: Casing): string =>
  casing === 'camel' && name ? name[0]!.toLowerCase() + name.slice(1) : name;

// Fields whose sample is checked by the service: a value that passes makes try-it-out work.
const NAMED_SAMPLES: [RegExp, string][] = [
  [/e-?mail/i, 'jane@example.com'],
  [/iban/i, 'DE89370400440532013000'],
  [/bic$/i, 'COBADEFFXXX'],
  [/country$/i, 'DE'],
];

function fallback(s: Json, style: SampleStyle, depth: number, name: string): unknown {
  switch (s.type) {
    case 'string':
      if (s.format === 'email') return 'jane@example.com';
      return NAMED_SAMPLES.find(([re]) => re.test(name))?.[1] ?? 'string';
    case 'integer':
      return typeof s.minimum === 'number' ? Math.max(s.minimum, 1) : 1;
    case 'number':
      return 9.99;
    case 'boolean':
      return false;
    case 'array':
      return [sampleOf(s.items as TSchema, style, depth + 1, name)];
    case 'object':
      if (s.properties) return sampleObject(s, style, depth);
      if (s.patternProperties) return { key: sampleOf(Object.values(s.patternProperties as Json)[0] as TSchema, style, depth + 1) };
      return {};
    default:
      return 'string';
  }
}

function sampleObject(s: Json, style: SampleStyle, depth: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (depth > 4) return out;
  for (const [name, prop] of Object.entries(s.properties as Record<string, TSchema>)) {
    out[wireName(name, style.casing)] = sampleOf(prop, style, depth + 1, name);
  }
  return out;
}

/**
 * A plausible value of a schema for documentation: the schema's own `examples`/`default` first,
 * then one made up from the type. Dates come out as the wire writes them (WCF form or ISO).
 */
export function sampleOf(schema: TSchema, style: SampleStyle, depth = 0, name = ''): unknown {
  const { schema: inner } = unwrapNullable(schema);
  const s = inner as Json;
  if (s[WIRE_DATE] === true) return formatWireDate(SAMPLE_DATE_MS, style.dateStyle);
  const own = (schema as Json).examples ?? s.examples;
  if (Array.isArray(own) && own.length > 0 && s.type !== 'object') return own[0];
  if (s.default !== undefined) return s.default;
  const values = enumValues(inner);
  if (values) return values[0];
  return fallback(s, style, depth, name);
}

function cased(value: unknown, casing: Casing): unknown {
  if (Array.isArray(value)) return value.map((v) => cased(v, casing));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [wireName(k, casing), cased(v, casing)]));
}

/** The sample request of an operation: its own example (a valid request) or one made up from the schema. */
export function requestSample(op: { readonly request: TSchema; readonly example?: Readonly<Record<string, unknown>> }, style: SampleStyle): Record<string, unknown> {
  return (op.example ? cased(op.example, style.casing) : sampleOf(op.request, style)) as Record<string, unknown>;
}

/** JSON text of a sample exactly as the wire writes it (`\/Date(…)\/` keeps its backslashes). */
export function sampleJson(value: unknown, style: SampleStyle, indent = 2): string {
  const json = JSON.stringify(value, null, indent) ?? 'null';
  return style.dateStyle === 'wcf' ? escapeWcfDates(json) : json;
}
