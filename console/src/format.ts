// Amounts and dates as the browser's locale writes them (Intl); the API's values stay untouched.

const moneyFormats = new Map<string, Intl.NumberFormat>();

/** An amount in its currency (EUR 2 digits, JPY 0, …) in the browser's locale. */
export function money(amount: number | null | undefined, currency: string | null | undefined): string {
  if (amount === null || amount === undefined) return '—';
  const code = currency || 'EUR';
  let format = moneyFormats.get(code);
  if (!format) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency: code });
    } catch {
      format = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2 });
    }
    moneyFormats.set(code, format);
  }
  return format.format(amount);
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateOnlyUtc = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** Midnight UTC: how the wire sends a calendar date (a custom field's Date, a date typed without a time). */
const isUtcMidnight = (d: Date): boolean =>
  d.getUTCHours() === 0 && d.getUTCMinutes() === 0 && d.getUTCSeconds() === 0 && d.getUTCMilliseconds() === 0;

/** A moment (ISO 8601 from the API) in the browser's locale and time zone. */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : dateTime.format(d);
}

/**
 * A calendar date (no time of day) in the browser's locale. A date sent as midnight UTC is that
 * day wherever the browser is (west of Greenwich it would otherwise read as the day before); any
 * other moment is the day it falls on in the browser's time zone.
 */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return (isUtcMidnight(d) ? dateOnlyUtc : dateOnly).format(d);
}

/** A plain number in the browser's locale. */
export const count = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : new Intl.NumberFormat().format(n));
