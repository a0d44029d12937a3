import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { FieldRules } from '../wire/field-rules.js';
import {
  CONFIRMATION_TEXT_FIELDS, PAYMENT_TYPES, REQUIRED_FIELDS,
  type ConfirmOrderRequest, type ConfirmationTextField, type CreateOrderRequest,
} from './order.schemas.js';

export const MAX_TEXT = 255;
export const MAX_NOTE = 1000;
// Money as decimal(18,2): 16 integral digits also stay exact in a JSON (double) number.
const AMOUNT_PRECISION = 18;
const AMOUNT_SCALE = 2;

export interface PaymentData {
  Amount: number;
  Name: string;
  Date?: number;
  ReferenceNumber?: string;
  FinancialAccountNumber?: string;
  Type?: string;
}

/** A confirmation request after validation: what is stored with the order and hashed. */
export type ConfirmationData = { [K in ConfirmationTextField]?: string } & {
  CustomerSepaMandateDate?: number;
  DeliveryDate?: number;
  Payment?: PaymentData;
};

export interface ValidConfirmation {
  readonly orderId: number;
  readonly data: ConfirmationData;
}

/** Digits before and after the decimal point of a finite number, as written in its shortest form. */
export function decimalDigits(value: number): { integral: number; scale: number } {
  const [mantissa = '0', exp = '0'] = Math.abs(value).toString().toLowerCase().split('e');
  const [int = '', frac = ''] = mantissa.split('.');
  const all = int + frac;
  const point = int.length + Number(exp); // digits of `all` before the decimal point
  const leadingZeros = all.length - all.replace(/^0+/, '').length;
  return { integral: Math.max(0, point - leadingZeros), scale: Math.max(0, all.length - point) };
}

function orderIdRules(rules: FieldRules, pathId: number | undefined, body: Readonly<Record<string, unknown>> | undefined): void {
  if (pathId === undefined) return void rules.notEmpty('OrderId', pathId);
  if (pathId <= 0) return void rules.fail('OrderId', 'GreaterThan', "'OrderId' must be greater than '0'.");
  const bodyId = body?.OrderId;
  if (bodyId !== undefined && bodyId !== 0 && bodyId !== pathId) {
    rules.fail('OrderId', 'Equal', `'OrderId' must be equal to '${pathId}' (the order of the path), or be left out.`);
  }
}

function bankRules(rules: FieldRules, req: Partial<ConfirmOrderRequest>): void {
  // The messages never repeat the value: bank data must not travel in error bodies or logs.
  if (req.CustomerIban && !rules.hasFailed('CustomerIban') && !isValidIBAN(electronicFormatIBAN(req.CustomerIban) ?? '')) {
    rules.fail('CustomerIban', 'Iban', "'CustomerIban' is not a valid IBAN (country, length or check digits are wrong).");
  }
  if (req.CustomerBic && !rules.hasFailed('CustomerBic') && !isValidBIC(req.CustomerBic.trim().toUpperCase())) {
    rules.fail('CustomerBic', 'Bic', "'CustomerBic' is not a valid BIC (8 or 11 characters: bank, country, location, branch).");
  }
}

function paymentRules(rules: FieldRules, payment: Partial<PaymentData> | undefined): void {
  if (payment === undefined) return;
  rules.notNull('Payment.Amount', payment.Amount).atLeast('Payment.Amount', payment.Amount, 0);
  if (typeof payment.Amount === 'number' && !rules.hasFailed('Payment.Amount')) {
    const { integral, scale } = decimalDigits(payment.Amount);
    if (scale > AMOUNT_SCALE || integral > AMOUNT_PRECISION - AMOUNT_SCALE) {
      rules.fail('Payment.Amount', 'ScalePrecision',
        `'Payment.Amount' must not be more than ${AMOUNT_PRECISION} digits in total, with allowance for ${AMOUNT_SCALE} decimals. ${integral + scale} digits and ${scale} decimals were found.`);
    }
  }
  rules.notEmpty('Payment.Name', payment.Name);
  for (const f of ['Name', 'ReferenceNumber', 'FinancialAccountNumber', 'Type'] as const) rules.maxLength(`Payment.${f}`, payment[f], MAX_TEXT);
  rules.oneOf('Payment.Type', payment.Type, PAYMENT_TYPES);
}

/** The stored form: IBAN and BIC in electronic format (no spaces, upper case), the rest as sent. */
function normalize(req: Partial<ConfirmOrderRequest>): ConfirmationData {
  const data: ConfirmationData = {};
  for (const f of CONFIRMATION_TEXT_FIELDS) if (req[f] !== undefined) data[f] = req[f];
  if (req.CustomerIban) data.CustomerIban = electronicFormatIBAN(req.CustomerIban) ?? req.CustomerIban;
  if (req.CustomerBic) data.CustomerBic = req.CustomerBic.trim().toUpperCase();
  if (req.CustomerSepaMandateDate !== undefined) data.CustomerSepaMandateDate = req.CustomerSepaMandateDate;
  if (req.DeliveryDate !== undefined) data.DeliveryDate = req.DeliveryDate;
  if (req.Payment !== undefined) data.Payment = { ...req.Payment } as PaymentData;
  return data;
}

/**
 * Checks a confirmation request; every bad field is reported once, with its first failing rule.
 * `body` is what the JSON body alone said, to compare its OrderId with the path's; the
 * Idempotency-Key header is checked with the fields.
 */
export function validateConfirmation(
  req: Partial<ConfirmOrderRequest>,
  body: Readonly<Record<string, unknown>> | undefined,
  idempotencyKey?: string,
): ValidConfirmation {
  const rules = new FieldRules();
  rules.maxLength('Idempotency-Key', idempotencyKey, MAX_TEXT);
  orderIdRules(rules, req.OrderId, body);
  for (const f of REQUIRED_FIELDS) rules.notEmpty(f, req[f]);
  for (const f of CONFIRMATION_TEXT_FIELDS) rules.maxLength(f, req[f], f === 'Note' ? MAX_NOTE : MAX_TEXT);
  rules.email('CustomerEMail', req.CustomerEMail);
  bankRules(rules, req);
  paymentRules(rules, req.Payment as Partial<PaymentData> | undefined);
  rules.throwIfAny();
  return { orderId: req.OrderId!, data: normalize(req) };
}

/** Checks an operator's new order; an empty OrderNumber means "generate one". */
export function validateCreateOrder(req: CreateOrderRequest): void {
  const rules = new FieldRules();
  if (req.OrderNumber !== undefined && req.OrderNumber !== '' && req.OrderNumber.trim() === '') rules.notEmpty('OrderNumber', req.OrderNumber);
  rules.maxLength('OrderNumber', req.OrderNumber, MAX_TEXT);
  rules.maxLength('Note', req.Note, MAX_NOTE);
  rules.throwIfAny();
}

/** Checks an order id taken from a path (or a predefined route's body or query). */
export function validateOrderId(orderId: number | undefined): number {
  const rules = new FieldRules();
  orderIdRules(rules, orderId, undefined);
  rules.throwIfAny();
  return orderId!;
}
