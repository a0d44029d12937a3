/**
 * Amounts as exact integers of the currency's minor unit (cents for EUR, fils for KWD), in `bigint`:
 * an order's totals reach 1,000 lines × 1,000,000 × 10^12 × 10^4 minor units, far beyond the 2^53
 * a `number` holds exactly, and tax is computed on products of such sums and rates.
 */

/** A decimal as a coefficient and a count of digits after the point: 12.5 is { coefficient: 125n, scale: 1 }. */
export interface ExactDecimal {
  readonly coefficient: bigint;
  readonly scale: number;
}

/**
 * The decimal a JSON number stands for: the shortest text that reads back as the same double
 * (`String(value)`, exponent forms such as 1e-7 included), without trailing zeros. For an amount
 * with at most 15 significant digits this is the text the client wrote (docs/orders.md).
 */
export function exactDecimalOf(value: number): ExactDecimal {
  if (!Number.isFinite(value)) throw new RangeError(`${value} is not a finite number`);
  const [mantissa = '', exponent = '0'] = String(value).split('e');
  const negative = mantissa.startsWith('-');
  const [integral = '', fraction = ''] = (negative ? mantissa.slice(1) : mantissa).split('.');
  let coefficient = BigInt(integral + fraction);
  let scale = fraction.length - Number(exponent);
  if (scale < 0) {
    coefficient *= 10n ** BigInt(-scale);
    scale = 0;
  }
  while (scale > 0 && coefficient % 10n === 0n) {
    coefficient /= 10n;
    scale -= 1;
  }
  return { coefficient: negative ? -coefficient : coefficient, scale };
}

/** The value in minor units of a currency with `digits` minor-unit digits, or undefined when it has more decimals than that. */
export function minorUnitsOf(value: number, digits: number): bigint | undefined {
  const { coefficient, scale } = exactDecimalOf(value);
  return scale > digits ? undefined : coefficient * 10n ** BigInt(digits - scale);
}

/** Minor units as decimal text with every minor-unit digit: 1230n at 2 digits is "12.30", at 0 digits "1230". */
export function decimalTextOf(units: bigint, digits: number): string {
  const sign = units < 0n ? '-' : '';
  const text = (units < 0n ? -units : units).toString().padStart(digits + 1, '0');
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * Minor units as the JSON number the wire carries: the double nearest the decimal. It writes back
 * as exactly that decimal while the decimal has at most 15 significant digits (every single amount
 * of an order, and totals below 10^13 at 2 digits); `decimalTextOf` is exact at any size.
 */
export function wireNumberOf(units: bigint, digits: number): number {
  return Number(decimalTextOf(units, digits));
}

/**
 * Decimal text as stored ("12.30", "7", "0.5") in minor units of a currency with `digits` digits,
 * or undefined when it is not such a decimal or has more decimals than that.
 */
export function minorUnitsOfText(text: string, digits: number): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const [, sign = '', integral = '', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > digits) return undefined;
  const units = BigInt(integral + significant.padEnd(digits, '0'));
  return sign === '-' ? -units : units;
}
