import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LIST_LENGTH, NAME_LENGTH, NotNull, TEXT_LENGTH, withRules } from '../wire/request-schema.js';
import { Nullable, WireDate } from '../wire/schema-types.js';
import { TextQuery, textQueryRule } from '../wire/text-query.js';
import { orderCursorIssuedHere } from './order.cursor.js';
import { PAYMENT_STATUSES } from './order-life.status.js';
import { amountScale, bic, email, iban, idempotencyKeyRule, orderIdOfPath, orderNumber, paymentType } from './order.rules.js';

export { PAYMENT_TYPES } from './order.rules.js';

// Required properties must not be empty; every request string has a length limit
// (wire/request-validation.ts checks both, and every problem is reported at once).
const opt = (description: string, maxLength = NAME_LENGTH) => Type.Optional(Type.String({ description, maxLength }));
const req = (description: string) => Type.String({ description: `${description} Required.`, maxLength: NAME_LENGTH });

export const OrderPayment = withRules(
  Type.Object(
    {
      Amount: NotNull(Type.Number({ description: 'Amount paid: ≥ 0, at most 2 decimals. Required.', minimum: 0 })),
      Name: req('Name of the payment.'),
      Date: Type.Optional(WireDate({ description: 'Date of the payment.' })),
      ReferenceNumber: opt('The reference number for the payment.'),
      FinancialAccountNumber: opt('Financial account number.'),
      Type: Type.Optional(Type.String({ description: 'Type of payment: PayPal, Unknown or an empty string.', examples: ['PayPal'] })),
    },
    { $id: 'OrderPayment' },
  ),
  { Amount: amountScale, Type: paymentType },
);
export type OrderPayment = Static<typeof OrderPayment>;

/** The confirmation's body fields, in the spec's order (OrderId is the path's). */
export const CONFIRMATION_TEXT_FIELDS = [
  'CustomerId',
  'CustomerSalutation',
  'CustomerFirstName',
  'CustomerLastName',
  'CustomerPostalCode',
  'CustomerCity',
  'CustomerCountry',
  'CustomerStreet',
  'CustomerStreetNumber',
  'CustomerCompany',
  'CustomerCompany2',
  'AdditionToAddress',
  'DeliveryAddressSalutation',
  'DeliveryAddressFirstName',
  'DeliveryAddressLastName',
  'DeliveryAddressPostalCode',
  'DeliveryAddressCity',
  'DeliveryAddressCountry',
  'DeliveryAddressStreet',
  'DeliveryAddressStreetNumber',
  'DeliveryAddressCompany',
  'AdditionToDeliveryAddress',
  'CustomerIban',
  'CustomerBic',
  'CustomerSepaMandateReference',
  'AccountHolderName',
  'CustomerEMail',
  'Note',
  'PaymentMethod',
  'ShippingMethod',
  'ExternalCustomerId',
  'OrderNumber',
  'MediaCode',
] as const;
export type ConfirmationTextField = (typeof CONFIRMATION_TEXT_FIELDS)[number];

/** The spec's required fields of a confirmation. */
export const REQUIRED_FIELDS = [
  'CustomerFirstName',
  'CustomerLastName',
  'CustomerPostalCode',
  'CustomerCity',
  'CustomerCountry',
  'CustomerStreet',
  'CustomerEMail',
] as const;
type RequiredField = (typeof REQUIRED_FIELDS)[number];

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

const requestText = (name: ConfirmationTextField) => {
  const description = DESCRIPTIONS[name] ?? `${name}.`;
  if ((REQUIRED_FIELDS as readonly string[]).includes(name)) return req(description);
  return opt(description, name === 'Note' ? TEXT_LENGTH : NAME_LENGTH);
};

const PathOrderId = (description: string) => Type.Integer({ description, exclusiveMinimum: 0 });

export const ConfirmOrderRequest = withRules(
  Type.Object(
    {
      OrderId: PathOrderId('Id of the order to confirm (path). A body OrderId must be absent, 0 or equal to it.'),
      ...(confirmationProperties(requestText) as Record<RequiredField, ReturnType<typeof req>> &
        Record<Exclude<ConfirmationTextField, RequiredField>, ReturnType<typeof opt>>),
      CustomerSepaMandateDate: Type.Optional(WireDate({ description: 'Date of the SEPA mandate.' })),
      DeliveryDate: Type.Optional(WireDate({ description: 'Requested delivery date.' })),
      Payment: Type.Optional(OrderPayment),
    },
    { $id: 'ConfirmOrder' },
  ),
  { ...idempotencyKeyRule, OrderId: orderIdOfPath, CustomerIban: iban, CustomerBic: bic, CustomerEMail: email },
);
export type ConfirmOrderRequest = Static<typeof ConfirmOrderRequest>;

export const ORDER_STATUSES = ['Open', 'Confirmed', 'Cancelled'] as const;
const Status = Type.Union(
  ORDER_STATUSES.map((s) => Type.Literal(s)),
  { description: 'Open, Confirmed or Cancelled.' },
);

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

export const CreateOrderRequest = withRules(
  Type.Object(
    {
      OrderNumber: opt('Unique order number; generated (ORD-000123) when absent.'),
      Note: opt('Free text, up to 1,000 characters.', TEXT_LENGTH),
    },
    { $id: 'CreateOrder' },
  ),
  { OrderNumber: orderNumber },
);
export type CreateOrderRequest = Static<typeof CreateOrderRequest>;

export const CreateOrderResponse = Type.Object(
  { OrderId: Type.Integer(), OrderNumber: Type.String(), Status: Type.Literal('Open') },
  { $id: 'CreateOrderResponse' },
);

/** The order feed's filters (AND; none: every order); lists of at most LIST_LENGTH entries. */
export const SearchOrdersRequest = withRules(
  Type.Object(
    {
      OrderIds: Type.Optional(
        Type.Array(Type.Integer(), { description: 'Order ids. Empty or omitted: no filter by id.', maxItems: LIST_LENGTH }),
      ),
      OrderNumbers: Type.Optional(
        Type.Array(Type.String({ maxLength: NAME_LENGTH }), {
          description: 'Order numbers, each matched exactly. Empty or omitted: no filter by number.',
          maxItems: LIST_LENGTH,
        }),
      ),
      CustomerIds: Type.Optional(
        Type.Array(Type.String({ maxLength: NAME_LENGTH }), {
          description: 'Ids of the customers the orders were confirmed for. Empty or omitted: no filter by customer.',
          maxItems: LIST_LENGTH,
        }),
      ),
      Statuses: Type.Optional(
        Type.Array(Status, {
          description: 'Open, Confirmed or Cancelled; several match any of them. Empty or omitted: every status.',
          maxItems: LIST_LENGTH,
        }),
      ),
      PaymentStatuses: Type.Optional(
        Type.Array(Type.Union(PAYMENT_STATUSES.map((s) => Type.Literal(s))), {
          description:
            'Unpaid, PartiallyPaid, Paid, PartiallyRefunded or Refunded; several match any of them. Empty or omitted: every one.',
          maxItems: LIST_LENGTH,
        }),
      ),
      LastModifiedAfter: Type.Optional(
        WireDate({
          description:
            'Only orders modified strictly after this date. Pass the X-Sync-Watermark of the previous answer to sync incrementally.',
        }),
      ),
      Take: Type.Optional(Type.Integer({ minimum: 0, description: 'Page size (optional; the whole result is returned by default).' })),
      Skip: Type.Optional(
        Type.Integer({ minimum: 0, description: 'Orders to skip before the page (for browsing; Skip does not advance the watermark).' }),
      ),
      Query: TextQuery("the OrderNumber, CustomerId, the confirmed customer's first or last name, e-mail or ExternalCustomerId"),
      Cursor: Type.Optional(
        Type.String({
          description:
            'The X-Sync-Cursor header of the previous page: continue right after its last order (a keyset: as fast on the last page as on the first).',
        }),
      ),
    },
    { $id: 'SearchOrders' },
  ),
  { Query: textQueryRule, Cursor: orderCursorIssuedHere },
);
export type SearchOrdersRequest = Static<typeof SearchOrdersRequest>;

/** An order of the feed: the GET /orders/{OrderId} shape and its modification time. */
export const OrderFeedItem = Type.Object(
  { ...OrderView.properties, LastModified: WireDate({ description: 'When the order last changed (its sync stamp).' }) },
  { $id: 'OrderFeedItem' },
);

export const OrderIdRequest = (name: string) => Type.Object({ OrderId: PathOrderId('Id of the order (path).') }, { $id: name });
