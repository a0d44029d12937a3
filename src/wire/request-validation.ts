import type { Static, TObject, TSchema } from '@sinclair/typebox';
import { FieldRules } from './field-rules.js';
import { isNotNull, rulesOf, type RuleContext } from './request-schema.js';

type Json = Record<string, unknown>;
/** Checks one present value under its full field name. */
type Check = (rules: FieldRules, field: string, value: unknown, ctx: RuleContext) => void;

/** A compiled request check: collects every field failure into `rules` (a new one by default). */
export type Validator = (value: Readonly<Json>, ctx?: RuleContext, rules?: FieldRules) => FieldRules;

const NONE: Check = () => {};

/** `X | null` → X: a null is treated as absent. */
function nonNull(schema: TSchema): TSchema {
  const any = (schema as Json).anyOf as TSchema[] | undefined;
  const rest = any?.filter((s) => (s as Json).type !== 'null');
  return rest?.length === 1 ? rest[0]! : schema;
}

/** The string values of `enum`, `const` or a union of string literals. */
function enumOf(s: Json): readonly unknown[] | undefined {
  if (Array.isArray(s.enum)) return s.enum as unknown[];
  if (Array.isArray(s.anyOf) && (s.anyOf as Json[]).every((x) => x.const !== undefined)) return (s.anyOf as Json[]).map((x) => x.const);
  return undefined;
}

/** The schema's own checks of a present value, in FluentValidation's order: size, range, enum. */
function checksOf(schema: TSchema): Check[] {
  const s = nonNull(schema) as Json;
  const checks: Check[] = [];
  const num = (k: string) => (typeof s[k] === 'number' ? (s[k] as number) : undefined);
  const [maxLength, maxItems, min, max, above] = [
    num('maxLength'),
    num('maxItems'),
    num('minimum'),
    num('maximum'),
    num('exclusiveMinimum'),
  ];
  if (maxLength !== undefined) checks.push((r, f, v) => r.maxLength(f, v, maxLength));
  if (maxItems !== undefined) checks.push((r, f, v) => r.maxItems(f, v, maxItems));
  if (min !== undefined && max !== undefined) checks.push((r, f, v) => r.between(f, v, min, max));
  else if (min !== undefined) checks.push((r, f, v) => r.atLeast(f, v, min));
  else if (max !== undefined) checks.push((r, f, v) => r.atMost(f, v, max));
  if (above !== undefined) checks.push((r, f, v) => r.greaterThan(f, v, above));
  const values = enumOf(s);
  if (values) checks.push((r, f, v) => r.oneOf(f, v, values));
  if (s.type === 'array' && s.items) {
    const item = valueCheck(s.items as TSchema);
    if (item !== NONE) checks.push((r, f, v, ctx) => (v as unknown[]).forEach((x, i) => item(r, `${f}[${i}]`, x, ctx)));
  }
  const object = s.type === 'object' && s.properties ? objectCheck(s as unknown as TObject) : NONE;
  if (object !== NONE) checks.push(object);
  return checks;
}

/** All checks of a present value, stopping at its first failure. */
function valueCheck(schema: TSchema): Check {
  const checks = checksOf(schema);
  if (checks.length === 0) return NONE;
  return (rules, field, value, ctx) => {
    if (value === undefined || value === null) return;
    for (const check of checks) {
      check(rules, field, value, ctx);
      if (rules.hasFailed(field)) return;
    }
  };
}

/**
 * An object's properties in schema order, each reported once with its first failure: presence
 * (required → NotEmpty, or NotNull where marked), the schema's checks, then its FieldRule.
 */
function objectCheck(schema: TObject): Check {
  const required = new Set(schema.required ?? []);
  const rules = rulesOf(schema);
  const outside = Object.keys(rules).filter((name) => !(name in schema.properties));
  const props = Object.entries(schema.properties).map(([name, prop]) => ({
    name,
    presence: required.has(name) ? (isNotNull(prop) ? 'notNull' : 'notEmpty') : undefined,
    check: valueCheck(prop),
    rule: rules[name],
  }));
  if (outside.length === 0 && props.every((p) => !p.presence && p.check === NONE && !p.rule)) return NONE;
  return (r, prefix, value, ctx) => {
    const object = value as Json;
    const at = (name: string) => (prefix ? `${prefix}.${name}` : name);
    for (const name of outside) rules[name]!(r, name, undefined, object, ctx);
    for (const p of props) {
      const field = at(p.name);
      const v = object[p.name];
      if (p.presence === 'notNull') r.notNull(field, v);
      else if (p.presence === 'notEmpty') r.notEmpty(field, v);
      if (r.hasFailed(field)) continue;
      p.check(r, field, v, ctx);
      if (!r.hasFailed(field)) p.rule?.(r, field, v, object, ctx);
    }
  };
}

/**
 * Compiles the one validation pass of a request schema: every property in schema order, nested
 * objects and list items included, yielding FluentValidation codes. Compile once, call per request.
 */
export function compileValidator(schema: TObject): Validator {
  const check = objectCheck(schema);
  return (value, ctx = {}, rules = new FieldRules()) => {
    check(rules, '', value, ctx);
    return rules;
  };
}

/** Validates a request and returns it typed by its schema; throws the ValidationError otherwise. */
export function validRequest<S extends TObject>(schema: S, value: Readonly<Json>, ctx?: RuleContext): Static<S> {
  compileValidator(schema)(value, ctx).throwIfAny();
  return value as Static<S>;
}
