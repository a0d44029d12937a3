import type { TObject, TSchema } from '@sinclair/typebox';
import type { FieldRules } from './field-rules.js';

/** Limits of the API: names, streets and ids; free text; identifier and entry lists. */
export const NAME_LENGTH = 255;
export const TEXT_LENGTH = 1000;
export const LIST_LENGTH = 1000;

/**
 * The vocabulary request schemas validate with (wire/request-validation.ts). A required property
 * (not `Type.Optional`) must not be empty (`NotEmpty`); `maxLength`, `maxItems`, `minimum`,
 * `maximum`, `exclusiveMinimum` and `enum` are checked as declared. What a schema cannot say is a
 * FieldRule attached with `withRules`.
 */
const NOT_NULL = 'x-not-null';
const CHECKED_LATER = 'x-checked-later';
const RULES = Symbol('field rules');

/** A required property that only has to be present (`NotNull`): 0 and blank text pass. */
export const NotNull = <T extends TSchema>(schema: T): T => ({ ...schema, [NOT_NULL]: true });
export const isNotNull = (schema: TSchema): boolean => schema[NOT_NULL] === true;

/**
 * A property clients must send whose absence is reported by a later rule that needs the store,
 * together with that rule's other failures (custom-field entries). Optional to the request pass
 * and in its type; required in the API description.
 */
export const CheckedLater = <T extends TSchema>(schema: T): T => ({ ...schema, [CHECKED_LATER]: true });

/** The properties a client must send: the schema's `required` and those CheckedLater. */
export function requiredFields(schema: TSchema): Set<string> {
  const out = new Set<string>((schema.required as string[] | undefined) ?? []);
  for (const [name, prop] of Object.entries((schema.properties ?? {}) as Record<string, TSchema>))
    if (prop[CHECKED_LATER] === true) out.add(name);
  return out;
}

/** What a rule may look at besides its value. Both are absent outside HTTP (CLI, imports). */
export interface RuleContext {
  /** Fields the JSON body alone carried, for rules comparing body and path. */
  readonly bodyFields?: Readonly<Record<string, unknown>> | undefined;
  header?(name: string): string | undefined;
}

/**
 * A rule a schema cannot express (checksums, formats, cross-field rules), for one property. It
 * runs after the schema's checks of that property passed, and reports through `rules` under
 * `field` (the property's full name, e.g. `Payment.Amount`) or names below it.
 */
export type FieldRule = (
  rules: FieldRules,
  field: string,
  value: unknown,
  object: Readonly<Record<string, unknown>>,
  ctx: RuleContext,
) => void;

export type FieldRuleMap = Readonly<Record<string, FieldRule>>;

/**
 * Attaches rules to an object schema, by property name. A rule named after no property (a
 * header such as Idempotency-Key) runs before the properties.
 */
export function withRules<T extends TObject>(schema: T, rules: FieldRuleMap): T {
  return Object.assign(schema, { [RULES]: rules });
}

export const rulesOf = (schema: TSchema): FieldRuleMap => (schema as { [RULES]?: FieldRuleMap })[RULES] ?? {};
