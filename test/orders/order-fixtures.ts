import assert from 'node:assert/strict';
import type { TestApp } from '../helpers/test-app.js';
import { json } from '../helpers/test-app.js';

export const IBAN = 'DE89370400440532013000';
export const MASKED_IBAN = 'DE89********3000';
export const BIC = 'COBADEFFXXX';

/** A complete, valid confirmation body (every spec field), with overrides. */
export function confirmation(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    CustomerSalutation: 'Frau',
    CustomerFirstName: 'Erika',
    CustomerLastName: 'Mustermann',
    CustomerPostalCode: '50667',
    CustomerCity: 'Köln',
    CustomerCountry: 'DE',
    CustomerStreet: 'Domkloster',
    CustomerStreetNumber: '4',
    CustomerCompany: '',
    CustomerCompany2: '',
    AdditionToAddress: '',
    DeliveryAddressSalutation: 'Herr',
    DeliveryAddressFirstName: 'Max',
    DeliveryAddressLastName: 'Mustermann',
    DeliveryAddressPostalCode: '10115',
    DeliveryAddressCity: 'Berlin',
    DeliveryAddressCountry: 'DE',
    DeliveryAddressStreet: 'Invalidenstraße',
    DeliveryAddressStreetNumber: '1',
    DeliveryAddressCompany: '',
    AdditionToDeliveryAddress: '',
    CustomerIban: IBAN,
    CustomerBic: BIC,
    CustomerSepaMandateReference: 'MANDATE-1',
    CustomerSepaMandateDate: '\\/Date(1700000000000-0000)\\/',
    AccountHolderName: 'Erika Mustermann',
    CustomerEMail: 'erika@example.com',
    Note: 'Bitte klingeln',
    PaymentMethod: 'SEPA',
    ShippingMethod: 'DHL',
    DeliveryDate: '/Date(1700600000000+0100)/',
    OrderNumber: 'SHOP-1',
    MediaCode: 'NEWSLETTER',
    Payment: {
      Amount: 19.99,
      Name: 'Anzahlung',
      Date: '2024-03-01T10:00:00Z',
      ReferenceNumber: 'R-1',
      FinancialAccountNumber: '1200',
      Type: 'PayPal',
    },
    ...overrides,
  };
}

/** Creates an open order through the operator API and returns its id. */
export async function createOrder(app: TestApp, body: Record<string, unknown> = {}): Promise<number> {
  const res = await app.inject({ method: 'POST', url: '/orders', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return json(res).OrderId as number;
}

export function confirm(app: TestApp, orderId: number | string, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: `/orders/${orderId}/confirm`, payload: body, headers });
}

/** Field name → error code of a 400 answer. */
export function fieldErrors(body: { ResponseStatus: { Errors: Array<{ FieldName: string; ErrorCode: string }> } }): Record<string, string> {
  return Object.fromEntries(body.ResponseStatus.Errors.map((e) => [e.FieldName, e.ErrorCode]));
}

/** A unique suffix for ids of one test. */
export const unique = (): string => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
