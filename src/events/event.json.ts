import { WireDateValue } from '../wire/serializer.js';

/**
 * Event data is stored as JSON text and rendered in the API's casing and date style when it leaves
 * (feed or webhook), so that the service's settings apply to old events too. Dates are stored as
 * {"$date": ms}: no field of a resource is an object of that one key, so they cannot be confused
 * with a string that looks like a date.
 */
export function encodeEventData(data: unknown): string {
  return JSON.stringify(data, function (this: Record<string, unknown>, key: string, value: unknown) {
    const raw = this[key];
    if (raw instanceof WireDateValue) return { $date: raw.ms };
    if (raw instanceof Date) return { $date: raw.getTime() };
    return value;
  });
}

export function decodeEventData(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === '$date') return new WireDateValue((value as { $date: number }).$date);
    }
    return value;
  });
}
