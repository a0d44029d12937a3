/** Output style for dates: ServiceStack's WCF JSON form (the spec's samples) or ISO 8601. */
export type DateStyle = 'wcf' | 'iso8601';

// An unencoded `+` in a query string arrives as a space; in the offset position it can only be a `+`.
const WCF = /^\\?\/Date\((-?\d{1,16})([+\- ]\d{4})?\)\\?\/$/;
// ISO 8601 date or date-time; no zone means UTC (as ServiceStack treats unspecified values).
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+\- ]\d{2}(?::?\d{2})?)?)?$/i;

function isoToMs(m: RegExpExecArray): number | undefined {
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d),
    hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  // setUTCFullYear, unlike Date.UTC, does not read years 0–99 as 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  if (date.getUTCDate() !== day) return undefined; // 2023-02-30 and the like
  date.setUTCHours(hour, minute, second, Number(frac.padEnd(3, '0').slice(0, 3)));
  let ms = date.getTime();
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    const offset = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
    if (offset > 18 * 60) return undefined;
    ms -= sign * offset * 60_000;
  }
  return ms;
}

/**
 * Parses every date form clients send: `\/Date(ms)\/`, `\/Date(ms±hhmm)\/`, `/Date(…)/`, ISO 8601
 * (with or without zone or time). The ms of the WCF form are the UTC instant; its offset is
 * informational. Returns epoch ms, or undefined when the text is not a date.
 */
export function parseWireDate(text: string): number | undefined {
  const t = text.trim();
  const wcf = WCF.exec(t);
  if (wcf) {
    const ms = Number(wcf[1]);
    return Number.isSafeInteger(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
  }
  const iso = ISO.exec(t);
  if (!iso) return undefined;
  const ms = isoToMs(iso);
  return ms !== undefined && Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? ms : undefined;
}

/**
 * The digits of epoch ms, as `${ms}` writes them. That conversion goes through V8's number-to-string
 * cache, which holds each string it makes for a number beyond the small-integer range (every epoch
 * ms) until another number takes its slot: strings held there live long enough to be moved to the
 * old generation of the heap. A feed writes several dates per order, and its server's heap grew by
 * about 20 MB per 10^6 orders until the next full collection. toFixed(0) writes the same digits for
 * every integer below 10^21 and keeps nothing.
 */
const digits = (ms: number): string => (Number.isInteger(ms) ? ms.toFixed(0) : String(ms));

/** The date as it stands in a JSON string value, before the wire layer escapes the slashes. */
export function formatWireDate(ms: number, style: DateStyle): string {
  return style === 'iso8601' ? new Date(ms).toISOString() : `/Date(${digits(ms)}-0000)/`;
}

/** A date as JSON text in the WCF style, as toJson writes it (escapeWcfDates included). */
export function wcfDateJson(ms: number): string {
  return Number.isInteger(ms) ? `"\\/Date(${digits(ms)}-0000)\\/"` : JSON.stringify(formatWireDate(ms, 'wcf'));
}

/**
 * ServiceStack writes `\/Date(…)\/` with escaped slashes in the raw JSON text. `\/` is a legal JSON
 * escape for `/`, so this changes no value: it only makes the text byte-identical to the original.
 */
export function escapeWcfDates(json: string): string {
  return json.includes('/Date(') ? json.replace(/"\/Date\((-?\d+)-0000\)\/"/g, '"\\/Date($1-0000)\\/"') : json;
}
