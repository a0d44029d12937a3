import type { TSchema } from '@sinclair/typebox';
import type { AnyOperation, HttpMethod } from '../wire/operation.js';
import { requiredFields } from '../wire/request-schema.js';
import { WIRE_DATE } from '../wire/schema-types.js';

/** A property or response type, reduced to what the DTO generators need. */
export type TypeRef =
  | { readonly kind: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'any' }
  | { readonly kind: 'enum'; readonly values: readonly string[] }
  | { readonly kind: 'array'; readonly items: TypeRef }
  | { readonly kind: 'map'; readonly values: TypeRef }
  | { readonly kind: 'named'; readonly name: string }
  | { readonly kind: 'void' };

export interface FieldModel {
  readonly name: string;
  readonly type: TypeRef;
  /** Required (see requiredFields): always sent (requests) or always present (responses). */
  readonly required: boolean;
  readonly nullable: boolean;
  readonly description: string | undefined;
  readonly schema: TSchema;
}

export interface TypeModel {
  readonly name: string;
  readonly schema: TSchema;
  readonly fields: readonly FieldModel[];
  readonly description: string | undefined;
}

export interface OperationModel {
  readonly op: AnyOperation;
  readonly request: TypeModel;
  readonly response: TypeRef;
  /** The verb a generic client uses (`getMethod()`): the first route's. */
  readonly method: HttpMethod;
}

/** Every operation with its request and response types, and the named types they use. */
export interface ApiModel {
  readonly operations: readonly OperationModel[];
  /** Named non-request types (Customer, OrderPayment, …) in first-use order. */
  readonly types: readonly TypeModel[];
  /** The name each object schema got, so that every output names a type the same way. */
  readonly typeNames: ReadonlyMap<TSchema, string>;
}

type Json = Record<string, unknown>;

// Required-ness comes from the request schemas, as the validator reads it.
export { requiredFields } from '../wire/request-schema.js';

const pascal = (s: string): string => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/** Splits `X | null` into X and a nullable flag; other unions stay whole. */
export function unwrapNullable(schema: TSchema): { schema: TSchema; nullable: boolean } {
  const s = schema as Json;
  if (!Array.isArray(s.anyOf)) return { schema, nullable: false };
  const all = s.anyOf as TSchema[];
  const rest = all.filter((x) => (x as Json).type !== 'null');
  if (rest.length === all.length) return { schema, nullable: false };
  if (rest.length === 1) return { schema: rest[0]!, nullable: true };
  return { schema: { ...s, anyOf: rest } as unknown as TSchema, nullable: true };
}

/** The string values of an enum-like schema (`enum`, `const`, or a union of string literals). */
export function enumValues(schema: TSchema): string[] | undefined {
  const s = schema as Json;
  if (Array.isArray(s.enum) && s.enum.every((v) => typeof v === 'string')) return s.enum as string[];
  if (typeof s.const === 'string') return [s.const];
  if (Array.isArray(s.anyOf) && s.anyOf.length > 0 && (s.anyOf as Json[]).every((x) => typeof x.const === 'string')) {
    return (s.anyOf as Json[]).map((x) => x.const as string);
  }
  return undefined;
}

/** Collects named object types while walking the schemas; same name, other shape → numbered name. */
class TypeRegistry {
  readonly types: TypeModel[] = [];
  readonly bySchema = new Map<TSchema, string>();
  readonly #byName = new Map<string, string>();

  constructor(private readonly reserved: ReadonlySet<string>) {}

  refOf(schema: TSchema, nameHint: string): TypeRef {
    const { schema: inner } = unwrapNullable(schema);
    const s = inner as Json;
    if (s[WIRE_DATE] === true) return { kind: 'date' };
    const values = enumValues(inner);
    if (values) return { kind: 'enum', values };
    switch (s.type) {
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean':
        return { kind: s.type };
      case 'void':
      case 'null':
      case 'undefined':
        return { kind: 'void' };
      case 'array':
        return { kind: 'array', items: this.refOf(s.items as TSchema, nameHint.replace(/s$/, '') || nameHint) };
      case 'object':
        if (s.properties) return { kind: 'named', name: this.#named(inner, nameHint) };
        if (s.patternProperties) return { kind: 'map', values: this.refOf(Object.values(s.patternProperties as Json)[0] as TSchema, nameHint) };
        return { kind: 'any' };
      default:
        return { kind: 'any' };
    }
  }

  #named(schema: TSchema, nameHint: string): string {
    const known = this.bySchema.get(schema);
    if (known) return known;
    const base = pascal(typeof schema.$id === 'string' && schema.$id ? schema.$id : nameHint);
    const shape = JSON.stringify(schema);
    let name = base;
    for (let n = 2; this.reserved.has(name) || (this.#byName.has(name) && this.#byName.get(name) !== shape); n++) name = `${base}${n}`;
    this.bySchema.set(schema, name);
    if (this.#byName.has(name)) return name;
    this.#byName.set(name, shape);
    const model = modelOf(name, schema, this);
    this.types.push(model);
    return name;
  }
}

function modelOf(name: string, schema: TSchema, registry: TypeRegistry): TypeModel {
  const s = schema as Json;
  const required = requiredFields(schema);
  const fields = Object.entries((s.properties ?? {}) as Record<string, TSchema>).map(([field, prop]) => ({
    name: field,
    type: registry.refOf(prop, `${name}${pascal(field)}`),
    required: required.has(field),
    nullable: unwrapNullable(prop).nullable,
    description: typeof prop.description === 'string' ? prop.description : undefined,
    schema: prop,
  }));
  return { name, schema, fields, description: typeof s.description === 'string' ? s.description : undefined };
}

/** An operation's routes grouped by path, as ServiceStack's `[Route(path, "GET,POST")]` lists them. */
export function routesByPath(op: AnyOperation): { path: string; verbs: string }[] {
  const out = new Map<string, string[]>();
  for (const r of op.routes) out.set(r.path, [...(out.get(r.path) ?? []), r.method]);
  return [...out].map(([path, verbs]) => ({ path, verbs: verbs.join(',') }));
}

/** Types every generated file declares itself; schema types must not take these names. */
export const BUILT_IN_TYPES = ['ResponseStatus', 'ResponseError', 'ErrorResponse', 'IReturn', 'IReturnVoid', 'WireDate'];

/** Builds the model of the whole operation table; the generators only ever read this. */
export function buildApiModel(ops: readonly AnyOperation[]): ApiModel {
  const registry = new TypeRegistry(new Set([...ops.map((o) => o.name), ...BUILT_IN_TYPES]));
  const operations = ops.map((op) => {
    const request = modelOf(op.name, op.request, registry);
    const response = op.successStatus === 204 ? ({ kind: 'void' } as const) : registry.refOf(op.response, `${op.name}Response`);
    return { op, request, response, method: op.routes[0]?.method ?? 'POST' };
  });
  return { operations, types: registry.types, typeNames: registry.bySchema };
}
