import { Type, type TSchema, type TUnsafe, type SchemaOptions } from '@sinclair/typebox';

/** Marks a schema as a wire date: bound from every date form, written as `\/Date(ms-0000)\/` or ISO. */
export const WIRE_DATE = 'x-wire-date';

/** A DateTime property. Bound to epoch milliseconds; written in the request's date style. */
export function WireDate(options: SchemaOptions = {}): TUnsafe<number> {
  return Type.Unsafe<number>({
    type: 'string',
    format: 'date-time',
    [WIRE_DATE]: true,
    description:
      'A date: \\/Date(ms)\\/, \\/Date(ms±hhmm)\\/ or ISO 8601 in; \\/Date(ms-0000)\\/ out (ISO 8601 with ?jsconfig=DateHandler:ISO8601).',
    examples: ['\\/Date(1700000000000-0000)\\/'],
    ...options,
  });
}

/** A property that is always present in responses and null when unset. */
export function Nullable<T extends TSchema>(schema: T): ReturnType<typeof Type.Union<[T, ReturnType<typeof Type.Null>]>> {
  return Type.Union([schema, Type.Null()]);
}

/** True when a value of this schema can contain a date (so the serializer must look for them). */
export function mayContainDates(schema: TSchema, seen = new Set<TSchema>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  if (schema[WIRE_DATE] === true) return true;
  const s = schema as Record<string, unknown>;
  if (s.type === undefined && s.anyOf === undefined && s.allOf === undefined && s.oneOf === undefined) return true; // unknown
  const children: TSchema[] = [];
  for (const k of ['anyOf', 'allOf', 'oneOf'] as const) if (Array.isArray(s[k])) children.push(...(s[k] as TSchema[]));
  if (s.items && typeof s.items === 'object') children.push(s.items as TSchema);
  if (s.properties && typeof s.properties === 'object') children.push(...Object.values(s.properties as Record<string, TSchema>));
  return children.some((c) => mayContainDates(c, seen));
}
