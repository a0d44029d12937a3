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

/** A moment (ISO 8601 from the API) in the browser's locale and time zone. */
export function when(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : dateTime.format(d);
}

/** A calendar date (no time of day) in the browser's locale. */
export function day(value: string | null | undefined): string {
  if (!value) return '—';
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? value : dateOnly.format(d);
}

/** A plain number in the browser's locale. */
export const count = (n: number | null | undefined): string => (n === null || n === undefined ? '—' : new Intl.NumberFormat().format(n));
