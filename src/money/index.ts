// What other modules use of money: codes and digits, exact amounts, tax rates, an order's amounts and its rules.
export { CURRENCY_CODES, isCurrencyCode, minorDigitsOf } from './money.currencies.js';
export { decimalTextOf, exactDecimalOf, minorUnitsOf, minorUnitsOfText, wireNumberOf, type ExactDecimal } from './money.decimal-amounts.js';
export { TAX_RATE_DIGITS, taxRateHundredthsOf, taxRatePercentOf } from './money.tax-rates.js';
export type {
  Amounts,
  LineAmounts,
  OrderAmounts,
  OrderContent,
  OrderLineContent,
  OrderTotals,
  ShippingContent,
  TaxRateAmounts,
} from './order-content.types.js';
export { orderAmounts } from './money.order-totals.js';
export { orderAmountsWire, type OrderAmountsWire } from './order-amounts.wire.js';
export { ORDER_CONTENT_LIMITS, readOrderContent, type OrderContentRequest } from './order-content.rules.js';
