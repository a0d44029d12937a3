import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { FieldRule } from '../wire/request-schema.js';
import { NAME_LENGTH } from '../wire/request-schema.js';
import { readOrderContent } from '../money/index.js';
import { IDEMPOTENCY_HEADER } from './idempotency.writes.js';

// The rules of order requests that a schema cannot express; order.schemas.ts attaches them.

export const PAYMENT_TYPES = ['PayPal', 'Unknown', ''] as const;
// Money as decimal(18,2): 16 integral digits also stay exact in a JSON (double) number.
const AMOUNT_PRECISION = 18;
const AMOUNT_SCALE = 2;

/** Digits before and after the decimal point of a finite number, as written in its shortest form. */
export function decimalDigits(value: number): { integral: number; scale: number } {
  const [mantissa = '0', exp = '0'] = Math.abs(value).toString().toLowerCase().split('e');
  const [int = '', frac = ''] = mantissa.split('.');
  const all = int + frac;
  const point = int.length + Number(exp); // digits of `all` before the decimal point
  const leadingZeros = all.length - all.replace(/^0+/, '').length;
  return { integral: Math.max(0, point - leadingZeros), scale: Math.max(0, all.length - point) };
}

/** The Idempotency-Key header is checked with the fields (it is stored, so it has a length limit). */
export const idempotencyKeyRule: Record<string, FieldRule> = {
  [IDEMPOTENCY_HEADER]: (rules, field, _value, _request, ctx) =>
    void rules.maxLength(field, ctx.header?.(field)?.trim() || undefined, NAME_LENGTH),
};

/** A body OrderId must be absent, 0 or the order of the path (ServiceStack DTOs carry both). */
export const orderIdOfPath: FieldRule = (rules, field, pathId, _request, ctx) => {
  const bodyId = ctx.bodyFields?.OrderId;
  if (bodyId !== undefined && bodyId !== 0 && bodyId !== pathId) {
    rules.fail(field, 'Equal', `'${field}' must be equal to '${String(pathId)}' (the order of the path), or be left out.`);
  }
};

// The messages never repeat the value: bank data must not travel in error bodies or logs.
export const iban: FieldRule = (rules, field, value) => {
  if (typeof value === 'string' && value && !isValidIBAN(electronicFormatIBAN(value) ?? '')) {
    rules.fail(field, 'Iban', `'${field}' is not a valid IBAN (country, length or check digits are wrong).`);
  }
};

export const bic: FieldRule = (rules, field, value) => {
  if (typeof value === 'string' && value && !isValidBIC(value.trim().toUpperCase())) {
    rules.fail(field, 'Bic', `'${field}' is not a valid BIC (8 or 11 characters: bank, country, location, branch).`);
  }
};

export const email: FieldRule = (rules, field, value) => void rules.email(field, value);

export const amountScale: FieldRule = (rules, field, value) => {
  if (typeof value !== 'number') return;
  const { integral, scale } = decimalDigits(value);
  if (scale > AMOUNT_SCALE || integral > AMOUNT_PRECISION - AMOUNT_SCALE) {
    rules.fail(
      field,
      'ScalePrecision',
      `'${field}' must not be more than ${AMOUNT_PRECISION} digits in total, with allowance for ${AMOUNT_SCALE} decimals. ${integral + scale} digits and ${scale} decimals were found.`,
    );
  }
};

// A string enum rather than a schema enum: the DTOs keep Type a plain string, as ServiceStack's do.
export const paymentType: FieldRule = (rules, field, value) => void rules.oneOf(field, value, PAYMENT_TYPES);

/**
 * The order's content (Currency, PricesIncludeTax, Lines, Shipping), read as a whole by the money
 * module's rules: amounts' digits depend on the currency (order.schemas.ts attaches it).
 */
export const orderContentRule =
  (defaultCurrency: string): FieldRule =>
  (rules, _field, _value, request) =>
    void readOrderContent(rules, request, defaultCurrency);

/** An empty OrderNumber means "generate one"; blank text is a mistake. */
export const orderNumber: FieldRule = (rules, field, value) => {
  if (typeof value === 'string' && value !== '' && value.trim() === '') rules.notEmpty(field, value);
};
