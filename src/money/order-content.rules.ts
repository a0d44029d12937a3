import type { FieldRules } from '../wire/field-rules.js';
import { isEmpty } from '../wire/field-rules.js';
import { isCurrencyCode, minorDigitsOf } from './money.currencies.js';
import { exactDecimalOf, minorUnitsOf } from './money.decimal-amounts.js';
import type { OrderContent, OrderLineContent, ShippingContent } from './order-content.types.js';
import { taxRateHundredthsOf } from './money.tax-rates.js';

/** The limits of docs/orders.md. */
export const ORDER_CONTENT_LIMITS = {
  maxLines: 1_000,
  minQuantity: 1,
  maxQuantity: 1_000_000,
  /** Every amount is below this, in major units. */
  amountBelow: 1e12,
  maxTaxRate: 100,
  skuLength: 64,
  nameLength: 255,
} as const;

/** The order's content as the request carries it; types are the request schema's to check, values are checked here. */
export interface OrderContentRequest {
  readonly Currency?: unknown;
  readonly PricesIncludeTax?: unknown;
  readonly Lines?: unknown;
  readonly Shipping?: unknown;
}

type Fields = Readonly<Record<string, unknown>>;

/**
 * The request's order content in minor units, or undefined when a field is bad: each bad field is
 * then one failure in `rules` (`Currency`, `Lines[2].Quantity`, `Shipping.Amount`…), FluentValidation's codes.
 */
export function readOrderContent(rules: FieldRules, request: OrderContentRequest, defaultCurrency: string): OrderContent | undefined {
  const before = rules.errors.length;
  const currency = request.Currency ?? defaultCurrency;
  const digits = isCurrencyCode(currency) ? minorDigitsOf(currency) : undefined;
  if (digits === undefined) {
    rules.fail(
      'Currency',
      'Currency',
      `'Currency' must be an ISO 4217 currency code, such as EUR; '${String(currency).slice(0, 40)}' is not one.`,
    );
  }
  const lines = readLines(rules, request.Lines, digits);
  const shipping = isEmpty(request.Shipping) ? undefined : readShipping(rules, request.Shipping as Fields, digits);
  if (rules.errors.length > before || lines === undefined) return undefined;
  return {
    Currency: currency as string,
    PricesIncludeTax: request.PricesIncludeTax === true,
    Lines: lines,
    ...(shipping === undefined ? {} : { Shipping: shipping }),
  };
}

function readLines(rules: FieldRules, value: unknown, digits: number | undefined): OrderLineContent[] | undefined {
  if (!Array.isArray(value)) return [];
  // Beyond the limit the lines are not read one by one: a request of a million lines costs no more than the answer saying so.
  if (value.length > ORDER_CONTENT_LIMITS.maxLines) {
    rules.maxItems('Lines', value, ORDER_CONTENT_LIMITS.maxLines);
    return undefined;
  }
  const lines: OrderLineContent[] = [];
  value.forEach((raw: unknown, i) => {
    const line = readLine(rules, `Lines[${i}]`, (raw ?? {}) as Fields, digits);
    if (line) lines.push(line);
  });
  return lines.length === value.length ? lines : undefined;
}

function readLine(rules: FieldRules, path: string, line: Fields, digits: number | undefined): OrderLineContent | undefined {
  const sku = text(rules, `${path}.Sku`, line.Sku, ORDER_CONTENT_LIMITS.skuLength, true);
  const name = text(rules, `${path}.Name`, line.Name, ORDER_CONTENT_LIMITS.nameLength, true);
  const quantity = readQuantity(rules, `${path}.Quantity`, line.Quantity);
  const unitPrice = readAmount(rules, `${path}.UnitPrice`, line.UnitPrice, digits, true);
  const taxRate = readTaxRate(rules, `${path}.TaxRate`, line.TaxRate);
  const discount = readAmount(rules, `${path}.Discount`, line.Discount, digits, false);
  if (discount !== undefined && quantity !== undefined && unitPrice !== undefined && discount > BigInt(quantity) * unitPrice) {
    rules.fail(`${path}.Discount`, 'LessThanOrEqual', `'${path}.Discount' must be less than or equal to the line's Quantity × UnitPrice.`);
    return undefined;
  }
  if (sku === undefined || name === undefined || quantity === undefined || unitPrice === undefined || taxRate === undefined)
    return undefined;
  if (line.Discount !== undefined && line.Discount !== null && discount === undefined) return undefined;
  return {
    Sku: sku,
    Name: name,
    Quantity: quantity,
    UnitPrice: unitPrice,
    TaxRate: taxRate,
    ...(discount === undefined ? {} : { Discount: discount }),
  };
}

function readShipping(rules: FieldRules, shipping: Fields, digits: number | undefined): ShippingContent | undefined {
  const name = text(rules, 'Shipping.Name', shipping.Name, ORDER_CONTENT_LIMITS.nameLength, false);
  const amount = readAmount(rules, 'Shipping.Amount', shipping.Amount, digits, true);
  const taxRate = readTaxRate(rules, 'Shipping.TaxRate', shipping.TaxRate);
  if (amount === undefined || taxRate === undefined) return undefined;
  return { ...(name ? { Name: name } : {}), Amount: amount, TaxRate: taxRate };
}

function text(rules: FieldRules, field: string, value: unknown, max: number, required: boolean): string | undefined {
  if (required && rules.notEmpty(field, value).hasFailed(field)) return undefined;
  if (value === undefined || value === null) return undefined;
  // The request schema refuses other types first; here they count as no text at all.
  if (typeof value !== 'string') return void rules.fail(field, 'NotEmpty', `'${field}' must not be empty.`);
  return rules.maxLength(field, value, max).hasFailed(field) ? undefined : value;
}

/** A number present, or NotNull (FluentValidation's NotEmpty would refuse 0, a valid tax rate and price). */
function number(rules: FieldRules, field: string, value: unknown, required: boolean): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (required || (value !== undefined && value !== null)) rules.fail(field, 'NotNull', `'${field}' must not be empty.`);
  return undefined;
}

function readQuantity(rules: FieldRules, field: string, value: unknown): number | undefined {
  const quantity = number(rules, field, value, true);
  if (quantity === undefined) return undefined;
  if (!Number.isInteger(quantity)) return void scalePrecision(rules, field, quantity, 7, 0);
  const { minQuantity: min, maxQuantity: max } = ORDER_CONTENT_LIMITS;
  return rules.between(field, quantity, min, max).hasFailed(field) ? undefined : quantity;
}

/** An amount in minor units: ≥ 0, below 10^12, with no more decimals than the currency has (unchecked while the currency is unknown). */
function readAmount(rules: FieldRules, field: string, value: unknown, digits: number | undefined, required: boolean): bigint | undefined {
  const amount = number(rules, field, value, required);
  if (amount === undefined) return undefined;
  if (rules.atLeast(field, amount, 0).hasFailed(field)) return undefined;
  if (amount >= ORDER_CONTENT_LIMITS.amountBelow) {
    return void rules.fail(field, 'LessThan', `'${field}' must be less than '${ORDER_CONTENT_LIMITS.amountBelow}'.`);
  }
  if (digits === undefined) return undefined;
  const units = minorUnitsOf(amount, digits);
  if (units === undefined) scalePrecision(rules, field, amount, 12 + digits, digits);
  return units;
}

function readTaxRate(rules: FieldRules, field: string, value: unknown): number | undefined {
  const percent = number(rules, field, value, true);
  if (percent === undefined) return undefined;
  if (rules.between(field, percent, 0, ORDER_CONTENT_LIMITS.maxTaxRate).hasFailed(field)) return undefined;
  const hundredths = taxRateHundredthsOf(percent);
  if (hundredths === undefined) scalePrecision(rules, field, percent, 5, 2);
  return hundredths;
}

function scalePrecision(rules: FieldRules, field: string, value: number, precision: number, scale: number): void {
  const found = exactDecimalOf(Math.abs(value));
  const digitsFound = Math.max(found.coefficient.toString().length, found.scale);
  rules.fail(
    field,
    'ScalePrecision',
    `'${field}' must not be more than ${precision} digits in total, with allowance for ${scale} decimals. ` +
      `${digitsFound} digits and ${found.scale} decimals were found.`,
  );
}
