import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { REQUIRED_BY_RULES } from '../docs/type-model.js';
import { Nullable, WireDate } from '../wire/schema-types.js';

// Request properties are all optional in the schemas: required fields are checked by the
// validator, so that every problem is reported at once with FluentValidation codes.
// REQUIRED_BY_RULES shows them as required in the API description all the same.
const opt = (description: string) => Type.Optional(Type.String({ description }));
const req = (description: string) => Type.Optional(Type.String({ description: `${description} Required.`, [REQUIRED_BY_RULES]: true }));

export const PAYMENT_TYPES = ['PayPal', 'Unknown', ''] as const;

export const OrderPayment = Type.Object(
  {
    Amount: Type.Optional(Type.Number({ description: 'Amount paid: ≥ 0, at most 2 decimals. Required.', [REQUIRED_BY_RULES]: true })),
    Name: req('Name of the payment.'),
    Date: Type.Optional(WireDate({ description: 'Date of the payment.' })),
    ReferenceNumber: opt('The reference number for the payment.'),
    FinancialAccountNumber: opt('Financial account number.'),
    Type: Type.Optional(Type.String({ description: 'Type of payment: PayPal, Unknown or an empty string.', examples: ['PayPal'] })),
  },
  { $id: 'OrderPayment' },
);
export type OrderPayment = Static<typeof OrderPayment>;

/** The confirmation's body fields, in the spec's order (OrderId is the path's). */
export const CONFIRMATION_TEXT_FIELDS = [
  'CustomerId', 'CustomerSalutation', 'CustomerFirstName', 'CustomerLastName', 'CustomerPostalCode', 'CustomerCity',
  'CustomerCountry', 'CustomerStreet', 'CustomerStreetNumber', 'CustomerCompany', 'CustomerCompany2', 'AdditionToAddress',
  'DeliveryAddressSalutation', 'DeliveryAddressFirstName', 'DeliveryAddressLastName', 'DeliveryAddressPostalCode',
  'DeliveryAddressCity', 'DeliveryAddressCountry', 'DeliveryAddressStreet', 'DeliveryAddressStreetNumber',
  'DeliveryAddressCompany', 'AdditionToDeliveryAddress', 'CustomerIban', 'CustomerBic', 'CustomerSepaMandateReference',
  'AccountHolderName', 'CustomerEMail', 'Note', 'PaymentMethod', 'ShippingMethod', 'ExternalCustomerId', 'OrderNumber',
  'MediaCode',
] as const;
export type ConfirmationTextField = (typeof CONFIRMATION_TEXT_FIELDS)[number];

export const REQUIRED_FIELDS = [
  'CustomerFirstName', 'CustomerLastName', 'CustomerPostalCode', 'CustomerCity', 'CustomerCountry', 'CustomerStreet', 'CustomerEMail',
] as const;

const DESCRIPTIONS: Partial<Record<ConfirmationTextField, string>> = {
  CustomerId: 'Id of an existing customer to confirm for; unknown ids are refused.',
  ExternalCustomerId: "Matched against the customers' ExternalId when CustomerId is not given; a new customer gets it.",
  CustomerIban: 'IBAN (country, length and checksum are checked); shown masked afterwards.',
  CustomerBic: 'BIC (8 or 11 characters).',
  CustomerEMail: 'E-mail address.',
  Note: 'Free text, up to 1,000 characters.',
  OrderNumber: "The client's order number; stored with the confirmation.",
};

function confirmationProperties<T extends TSchema>(text: (name: ConfirmationTextField) => T) {
  const props: Record<string, TSchema> = {};
  for (const name of CONFIRMATION_TEXT_FIELDS) props[name] = text(name);
  return props as Record<ConfirmationTextField, T>;
}

const requestText = (name: ConfirmationTextField) =>
  (REQUIRED_FIELDS as readonly string[]).includes(name) ? req(DESCRIPTIONS[name] ?? `${name}.`) : opt(DESCRIPTIONS[name] ?? `${name}.`);

export const ConfirmOrderRequest = Type.Object(
  {
    OrderId: Type.Integer({ description: 'Id of the order to confirm (path). A body OrderId must be absent, 0 or equal to it.' }),
    ...confirmationProperties(requestText),
    CustomerSepaMandateDate: Type.Optional(WireDate({ description: 'Date of the SEPA mandate.' })),
    DeliveryDate: Type.Optional(WireDate({ description: 'Requested delivery date.' })),
    Payment: Type.Optional(OrderPayment),
  },
  { $id: 'ConfirmOrder' },
);
export type ConfirmOrderRequest = Static<typeof ConfirmOrderRequest>;

export const ORDER_STATUSES = ['Open', 'Confirmed', 'Cancelled'] as const;
const Status = Type.Union(ORDER_STATUSES.map((s) => Type.Literal(s)), { description: 'Open, Confirmed or Cancelled.' });

export const ConfirmOrderResponse = Type.Object(
  {
    OrderId: Type.Integer(),
    OrderNumber: Type.String(),
    Status: Type.Literal('Confirmed'),
    CustomerId: Type.String({ description: 'The customer the order was confirmed for (existing or new).' }),
    ConfirmedAt: WireDate(),
  },
  { $id: 'ConfirmOrderResponse' },
);

/** The confirmed request as GET /orders/{OrderId} shows it: every field present, IBAN masked. */
export const Confirmation = Type.Object(
  {
    ...confirmationProperties(() => Nullable(Type.String())),
    CustomerSepaMandateDate: Nullable(WireDate()),
    DeliveryDate: Nullable(WireDate()),
    Payment: Nullable(
      Type.Object({
        Amount: Nullable(Type.Number()),
        Name: Nullable(Type.String()),
        Date: Nullable(WireDate()),
        ReferenceNumber: Nullable(Type.String()),
        FinancialAccountNumber: Nullable(Type.String()),
        Type: Nullable(Type.String()),
      }),
    ),
  },
  { $id: 'OrderConfirmation' },
);

export const OrderView = Type.Object(
  {
    OrderId: Type.Integer(),
    OrderNumber: Type.String(),
    Status,
    CustomerId: Nullable(Type.String()),
    CreatedAt: WireDate(),
    ConfirmedAt: Nullable(WireDate()),
    CancelledAt: Nullable(WireDate()),
    Confirmation: Nullable(Confirmation),
  },
  { $id: 'Order' },
);

export const CreateOrderRequest = Type.Object(
  {
    OrderNumber: Type.Optional(Type.String({ description: 'Unique order number; generated (ORD-000123) when absent.' })),
    Note: Type.Optional(Type.String({ description: 'Free text, up to 1,000 characters.' })),
  },
  { $id: 'CreateOrder' },
);
export type CreateOrderRequest = Static<typeof CreateOrderRequest>;

export const CreateOrderResponse = Type.Object(
  { OrderId: Type.Integer(), OrderNumber: Type.String(), Status: Type.Literal('Open') },
  { $id: 'CreateOrderResponse' },
);

export const OrderIdRequest = (name: string) =>
  Type.Object({ OrderId: Type.Integer({ description: 'Id of the order (path).' }) }, { $id: name });
