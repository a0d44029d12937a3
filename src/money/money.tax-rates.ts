import { exactDecimalOf } from './money.decimal-amounts.js';

/**
 * Tax rates as integer hundredths of a percent (19 % is 1900, 7.5 % is 750): the contract allows
 * two decimals, so every rate is exact and tax = amount × rate / 10,000 stays in integers.
 */
export const TAX_RATE_DIGITS = 2;
export const MAX_TAX_RATE_HUNDREDTHS = 10_000;

/** A percent as sent (19, 7.5, 0.01) in hundredths, or undefined when it has more than two decimals. */
export function taxRateHundredthsOf(percent: number): number | undefined {
  const { coefficient, scale } = exactDecimalOf(percent);
  return scale > TAX_RATE_DIGITS ? undefined : Number(coefficient * 10n ** BigInt(TAX_RATE_DIGITS - scale));
}

/** Hundredths back to the percent the wire shows; division by 100 gives the double nearest the decimal, which writes back as it. */
export function taxRatePercentOf(hundredths: number): number {
  return hundredths / 100;
}
