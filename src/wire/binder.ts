import type { TObject, TSchema } from '@sinclair/typebox';
import { SerializationError, type FieldError } from '../errors.js';
import { parseWireDate } from './dates.js';
import { parseJsvList } from './jsv.js';
import { WIRE_DATE } from './schema-types.js';

type Kind =
  { t: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'any' } | { t: 'array'; item: Kind } | { t: 'object'; props: PropertyMap };
type PropertyMap = Map<string, { name: string; kind: Kind }>;

/** Query keys that steer the response rather than bind to the request (ServiceStack reserves them). */
const RESERVED = new Set(['format', 'callback', 'jsconfig', 'apikey', 'debug', '_']);

function kindOf(schema: TSchema): Kind {
  if (schema[WIRE_DATE] === true) return { t: 'date' };
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.anyOf)) {
    const nonNull = (s.anyOf as TSchema[]).filter((x) => (x as Record<string, unknown>).type !== 'null');
    return nonNull.length === 1 ? kindOf(nonNull[0] as TSchema) : { t: 'any' };
  }
  switch (s.type) {
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return { t: s.type };
    case 'array':
      return { t: 'array', item: kindOf(s.items as TSchema) };
    case 'object':
      return { t: 'object', props: propertyMap(schema as TObject) };
    default:
      return { t: 'any' };
  }
}

function propertyMap(schema: TObject): PropertyMap {
  const map: PropertyMap = new Map();
  for (const [name, prop] of Object.entries(schema.properties ?? {})) map.set(name.toLowerCase(), { name, kind: kindOf(prop) });
  return map;
}

const INVALID = Symbol('invalid');
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- names the sentinel a coercion may answer
type Coerced = unknown | typeof INVALID;

const INT = /^[+-]?\d{1,16}$/;
const NUM = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

function fromText(text: string, kind: Kind): Coerced {
  // An empty value of a non-text property means "not given" (`?Take=`), as in ServiceStack.
  if (text.trim() === '' && kind.t !== 'string' && kind.t !== 'any') return kind.t === 'array' ? [] : undefined;
  switch (kind.t) {
    case 'string':
      return text.includes('\u0000') ? INVALID : text;
    case 'any':
      return text;
    case 'integer': {
      const t = text.trim();
      return INT.test(t) && Number.isSafeInteger(Number(t)) ? Number(t) : INVALID;
    }
    case 'number': {
      const t = text.trim();
      return NUM.test(t) && Number.isFinite(Number(t)) ? Number(t) : INVALID;
    }
    case 'boolean': {
      const t = text.trim().toLowerCase();
      return t === 'true' || t === '1' ? true : t === 'false' || t === '0' ? false : INVALID;
    }
    case 'date':
      return parseWireDate(text) ?? INVALID;
    case 'array': {
      const items = parseJsvList(text).map((x) => fromText(x, kind.item));
      return items.includes(INVALID) ? INVALID : items;
    }
    case 'object': {
      try {
        return fromJson(JSON.parse(text), kind, '', []);
      } catch {
        return INVALID;
      }
    }
  }
}

function fromJson(value: unknown, kind: Kind, path: string, errors: FieldError[]): Coerced {
  if (value === null || value === undefined) return kind.t === 'any' ? value : undefined;
  switch (kind.t) {
    case 'any':
      return value;
    case 'string':
      // NUL cannot be stored (PostgreSQL text refuses it) and is never meaningful in these fields.
      if (typeof value === 'string') return value.includes('\u0000') ? INVALID : value;
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : INVALID;
    case 'integer':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? value : INVALID;
      return typeof value === 'string' ? fromText(value, kind) : INVALID;
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? value : INVALID;
      return typeof value === 'string' ? fromText(value, kind) : INVALID;
    case 'boolean':
      return typeof value === 'boolean' ? value : typeof value === 'string' ? fromText(value, kind) : INVALID;
    case 'date':
      return typeof value === 'string' ? fromText(value, kind) : INVALID;
    case 'array': {
      if (!Array.isArray(value)) return INVALID;
      // An item's fields are named by its index, as validation names them: `Lines[2].Quantity`.
      const out = value.map((v, i) => fromJson(v, kind.item, `${path.slice(0, -1)}[${i}].`, errors));
      return out.includes(INVALID) ? INVALID : out.filter((v) => v !== undefined);
    }
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) return INVALID;
      return bindObject(value as Record<string, unknown>, kind.props, path, errors);
    }
  }
}

function bindObject(source: Record<string, unknown>, props: PropertyMap, path: string, errors: FieldError[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(source)) {
    const prop = props.get(key.toLowerCase());
    if (!prop) continue;
    const field = path + prop.name;
    const v = fromJson(source[key], prop.kind, field + '.', errors);
    if (v === INVALID) errors.push(invalid(field, source[key]));
    else if (v !== undefined) out[prop.name] = v;
  }
  return out;
}

// Bank data and contact details are never repeated back, not even partly (responses get logged by clients).
const SECRET_FIELD = /iban|bic|e-?mail|account|key|password|token/i;

function invalid(field: string, value: unknown): FieldError {
  if (SECRET_FIELD.test(field)) {
    return { errorCode: SerializationError.CODE, fieldName: field, message: `An invalid value was given for '${field}'` };
  }
  let shown: string;
  try {
    shown = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    // Deeply nested input overflows the stack in JSON.stringify and String alike.
    shown = Array.isArray(value) ? '[…]' : typeof value === 'object' ? '{…}' : '…';
  }
  if (shown.length > 40) shown = shown.slice(0, 40) + '…';
  return { errorCode: SerializationError.CODE, fieldName: field, message: `'${shown}' is an Invalid value for '${field}'` };
}

/** Raw request parts, each optional. Text sources are path params, query string and form fields. */
export interface BindSources {
  body?: unknown;
  path?: Record<string, string>;
  query?: Record<string, string | string[] | undefined>;
  form?: Record<string, string | string[] | undefined>;
  /** GET/DELETE: the query string may override; other verbs: it fills only what is still unset. */
  queryOverrides: boolean;
}

export interface Bound {
  readonly request: Record<string, unknown>;
  /** What the JSON body alone said, for rules that compare body and path (OrderId, CustomerId). */
  readonly body: Readonly<Record<string, unknown>> | undefined;
}

export type Binder = (sources: BindSources) => Bound;

type TextSource = Record<string, string | string[] | undefined>;

/**
 * Binds one text source (path, query or form) into `request`: keys differing only in case name the
 * same property, and their values join like repeated keys. A source none of whose keys names a
 * property (most query strings of a path-bound read) allocates nothing.
 */
function applyText(
  props: PropertyMap,
  request: Record<string, unknown>,
  errors: FieldError[],
  source: TextSource | undefined,
  override: boolean,
  skipReserved: boolean,
): void {
  if (!source) return;
  let texts: Map<string, { name: string; kind: Kind; parts: string[] }> | undefined;
  for (const key of Object.keys(source)) {
    const lower = key.toLowerCase();
    if (skipReserved && RESERVED.has(lower)) continue;
    const prop = props.get(lower);
    const raw = source[key];
    if (!prop || raw === undefined) continue;
    texts ??= new Map();
    const entry = texts.get(prop.name);
    if (entry) entry.parts.push(...(Array.isArray(raw) ? raw : [raw]));
    else texts.set(prop.name, { name: prop.name, kind: prop.kind, parts: Array.isArray(raw) ? [...raw] : [raw] });
  }
  if (!texts) return;
  for (const { name, kind, parts } of texts.values()) {
    if (!override && request[name] !== undefined) continue;
    const text = parts.length === 1 || kind.t === 'array' ? parts.join(',') : parts[parts.length - 1]!;
    const v = fromText(text, kind);
    if (v === INVALID) errors.push(invalid(name, text));
    else if (v !== undefined) request[name] = v;
  }
}

/**
 * Compiles a binder for one request schema: ServiceStack's order (JSON body, then path, then query,
 * then form), property names case-insensitive, unknown keys ignored, JSV lists for text sources.
 * A value of the wrong type is a SerializationException naming the property. With `arrayBody`, a
 * JSON array body binds to that property instead of being refused.
 */
export function compileBinder(operation: string, schema: TObject, arrayBody?: string): Binder {
  const props = propertyMap(schema);
  return (src) => {
    const errors: FieldError[] = [];
    let body: Record<string, unknown> | undefined;
    const raw = arrayBody !== undefined && Array.isArray(src.body) ? { [arrayBody]: src.body } : src.body;
    if (raw !== undefined && raw !== null && raw !== '') {
      if (typeof raw !== 'object' || Array.isArray(raw)) {
        throw new SerializationError(operation, [
          { errorCode: SerializationError.CODE, fieldName: '', message: `The request body must be a JSON object for '${operation}'` },
        ]);
      }
      body = bindObject(raw as Record<string, unknown>, props, '', errors);
    }
    const request: Record<string, unknown> = { ...body };
    applyText(props, request, errors, src.path, true, false);
    applyText(props, request, errors, src.query, src.queryOverrides, true);
    applyText(props, request, errors, src.form, true, false);
    if (errors.length > 0) throw new SerializationError(operation, errors);
    return { request, body };
  };
}
