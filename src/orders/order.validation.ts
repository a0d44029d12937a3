import { electronicFormatIBAN } from 'ibantools';
import type { Static } from '@sinclair/typebox';
import { CONFIRMATION_TEXT_FIELDS, type ConfirmOrderRequest, type ConfirmationTextField, type OrderPayment } from './order.schemas.js';

/** A payment after validation: Amount and Name present (order.schemas.ts). */
export type PaymentData = Static<typeof OrderPayment>;

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

/**
 * The stored form of a validated confirmation (the request schema checked it, with its rules):
 * IBAN and BIC in electronic format (no spaces, upper case), the rest as sent.
 */
export function toValidConfirmation(req: ConfirmOrderRequest): ValidConfirmation {
  const data: ConfirmationData = {};
  for (const f of CONFIRMATION_TEXT_FIELDS) if (req[f] !== undefined) data[f] = req[f];
  if (req.CustomerIban) data.CustomerIban = electronicFormatIBAN(req.CustomerIban) ?? req.CustomerIban;
  if (req.CustomerBic) data.CustomerBic = req.CustomerBic.trim().toUpperCase();
  if (req.CustomerSepaMandateDate !== undefined) data.CustomerSepaMandateDate = req.CustomerSepaMandateDate;
  if (req.DeliveryDate !== undefined) data.DeliveryDate = req.DeliveryDate;
  if (req.Payment !== undefined) data.Payment = { ...req.Payment };
  return { orderId: req.OrderId, data };
}
