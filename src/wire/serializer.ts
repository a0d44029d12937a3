import { escapeWcfDates, formatWireDate, type DateStyle } from './dates.js';
import type { Casing, WireFormat } from './negotiation.js';

/**
 * Values that the serializer writes as dates. Services put epoch ms into a WireDateValue (or a JS
 * Date); plain numbers stay numbers.
 */
export class WireDateValue {
  constructor(readonly ms: number) {}
}

export const wireDate = (ms: number | null | undefined): WireDateValue | null =>
  ms === null || ms === undefined ? null : new WireDateValue(ms);

const camel = (key: string): string => (key.length > 0 ? key[0]!.toLowerCase() + key.slice(1) : key);

/** Deep copy with camelCase keys; dates are kept for the replacer. */
export function toCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamel);
  if (value === null || typeof value !== 'object' || value instanceof WireDateValue || value instanceof Date) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[camel(k)] = toCamel(v);
  return out;
}

function dateReplacer(style: DateStyle) {
  return function (this: Record<string, unknown>, key: string, v: unknown): unknown {
    const raw = this[key];
    if (raw instanceof WireDateValue) return formatWireDate(raw.ms, style);
    if (raw instanceof Date) return formatWireDate(raw.getTime(), style);
    return v;
  };
}

/** JSON text of a value in the response's casing and date style. */
export function toJson(value: unknown, casing: Casing, dateStyle: DateStyle, mayHaveDates: boolean): string {
  const shaped = casing === 'camel' ? toCamel(value) : value;
  if (!mayHaveDates) return JSON.stringify(shaped) ?? 'null';
  const json = JSON.stringify(shaped, dateReplacer(dateStyle)) ?? 'null';
  return dateStyle === 'wcf' ? escapeWcfDates(json) : json;
}

/** JSONP wraps the JSON text exactly as ServiceStack does: `fn(<json>)`. */
export const wrapJsonp = (callback: string, json: string): string => `${callback}(${json})`;

export const contentTypeOf = (format: WireFormat): string =>
  format.jsonp ? 'text/javascript; charset=utf-8' : 'application/json; charset=utf-8';
