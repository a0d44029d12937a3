import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LIST_LENGTH, NAME_LENGTH, NotNull, TEXT_LENGTH, withRules } from '../wire/request-schema.js';
import { Nullable, WireDate } from '../wire/schema-types.js';
import { TextQuery, textQueryRule } from '../wire/text-query.js';
import { orderCursorIssuedHere } from './order.cursor.js';
import { FULFILLMENT_STATUSES, PAYMENT_STATUSES } from './order-life.status.js';
import { OrderPaymentRecord, OrderRefundRecord, OrderReturnRecord, OrderShipmentRecord } from './order-life.schemas.js';
import { ORDER_CONTENT_LIMITS } from '../money/index.js';
import {
  amountScale,
  bic,
  email,
  iban,
  idempotencyKeyRule,
  orderContentRule,
  orderIdOfPath,
  orderNumber,
  paymentType,
} from './order.rules.js';

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

const { maxLines, maxQuantity, maxTaxRate, skuLength } = ORDER_CONTENT_LIMITS;

/**
 * A whole number with its thousands grouped by commas, as `toLocaleString('en')` writes it, which
 * would load ICU's number formatting data (some 6 MB of the binary's pages) into every serving
 * process for a few words of the schemas' descriptions.
 */
export const groupedThousands = (n: number): string => String(n).replace(/\B(?=(\d{3})+$)/g, ',');
const AMOUNT = "≥ 0, below 10^12, with at most the currency's minor-unit digits (EUR 2, JPY 0, KWD 3)";
const amount = (description: string) => Type.Number({ description: `${description} ${AMOUNT}.`, minimum: 0 });
const taxRate = (description: string) =>
  Type.Number({ description: `${description} In percent, 0–${maxTaxRate}, at most 2 decimals.`, minimum: 0, maximum: maxTaxRate });

/** A line as CreateOrder and UpdateOrder take it; the limits are checked by money/order-content.rules.ts. */
export const OrderLineRequest = Type.Object(
  {
    Sku: Type.String({ description: `Article number. Required, up to ${skuLength} characters.`, maxLength: skuLength }),
    Name: req('Article name.'),
    Quantity: NotNull(Type.Integer({ description: `1–${groupedThousands(maxQuantity)}. Required.`, minimum: 1, maximum: maxQuantity })),
    UnitPrice: NotNull(amount('Price of one unit, net or gross as PricesIncludeTax says. Required.')),
    TaxRate: NotNull(taxRate('Tax rate of the line. Required.')),
    Discount: Type.Optional(amount('Amount off the whole line, at most Quantity × UnitPrice.')),
  },
  { $id: 'OrderLineRequest' },
);

export const OrderShippingRequest = Type.Object(
  {
    Name: opt('Shipping method shown on the order.'),
    Amount: NotNull(amount('Shipping cost, net or gross as PricesIncludeTax says. Required.')),
    TaxRate: NotNull(taxRate('Tax rate of the shipping. Required.')),
  },
  { $id: 'OrderShippingRequest' },
);

/** The content CreateOrder takes and UpdateOrder replaces (docs/orders.md, "Content"). */
const contentProperties = {
  Currency: Type.Optional(
    Type.String({ description: 'ISO 4217 code such as EUR, JPY or KWD; DEFAULT_CURRENCY (EUR) when absent.', maxLength: 3 }),
  ),
  PricesIncludeTax: Type.Optional(
    Type.Boolean({ description: 'Whether UnitPrice, Discount and Shipping.Amount include tax (gross); default false (net).' }),
  ),
  Lines: Type.Optional(
    Type.Array(OrderLineRequest, { description: `What is ordered, up to ${groupedThousands(maxLines)} lines.`, maxItems: maxLines }),
  ),
  Shipping: Type.Optional(OrderShippingRequest),
};

const money = (description: string) => Type.Number({ description });

/** A line as the order shows it: as sent, numbered, with its computed amounts. */
export const OrderLine = Type.Object(
  {
    LineNumber: Type.Integer({ description: '1, 2, … in the order the lines were sent.' }),
    Sku: Type.String(),
    Name: Type.String(),
    Quantity: Type.Integer(),
    UnitPrice: Type.Number(),
    TaxRate: Type.Number({ description: 'In percent.' }),
    Discount: Type.Number({ description: 'Amount off the line; 0 when none.' }),
    Net: money("The line's net amount after its discount."),
    Tax: money("The line's share of its tax rate's tax."),
    Gross: money('Net + Tax.'),
  },
  { $id: 'OrderLine' },
);

export const OrderShipping = Type.Object(
  {
    Name: Nullable(Type.String()),
    Amount: Type.Number(),
    TaxRate: Type.Number({ description: 'In percent.' }),
    Net: Type.Number(),
    Tax: Type.Number(),
    Gross: Type.Number(),
  },
  { $id: 'OrderShipping' },
);

export const OrderTaxRateAmounts = Type.Object(
  { TaxRate: Type.Number({ description: 'In percent.' }), Net: Type.Number(), Tax: Type.Number() },
  { $id: 'OrderTaxRateAmounts' },
);

export const OrderTotals = Type.Object(
  {
    Net: money('Lines and shipping, net.'),
    Tax: money('The sum of the tax per tax rate, each rounded half away from zero at the minor unit.'),
    Gross: money('Net + Tax.'),
    Discount: money("The lines' discounts, net or gross as the prices are (already taken off)."),
    TaxBreakdown: Type.Array(OrderTaxRateAmounts, {
      description: 'One entry per tax rate, lowest first; sums to Net and Tax.',
      examples: [[{ TaxRate: 19, Net: 9.99, Tax: 1.9 }]],
    }),
  },
  { $id: 'OrderTotals' },
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
    Note: Nullable(
      Type.String({
        description:
          "The order's own note, as CreateOrder or UpdateOrder (or an import) gave it; null when none. The confirmation's Note is in Confirmation.",
      }),
    ),
    Confirmation: Nullable(Confirmation),
    Currency: Type.String({ description: 'ISO 4217 code.' }),
    PricesIncludeTax: Type.Boolean(),
    Lines: Type.Array(OrderLine),
    Shipping: Nullable(OrderShipping),
    Totals: OrderTotals,
    FulfillmentStatus: Type.Union(
      FULFILLMENT_STATUSES.map((s) => Type.Literal(s)),
      { description: 'Unfulfilled, PartiallyFulfilled, Fulfilled, PartiallyReturned or Returned: computed from Shipments and Returns.' },
    ),
    PaymentStatus: Type.Union(
      PAYMENT_STATUSES.map((s) => Type.Literal(s)),
      {
        description:
          "Unpaid, PartiallyPaid, Paid, PartiallyRefunded or Refunded: computed from the confirmation's Payment, Payments and Refunds.",
      },
    ),
    Shipments: Type.Array(OrderShipmentRecord, { description: 'What was shipped, oldest first; [] when nothing.' }),
    Payments: Type.Array(OrderPaymentRecord, {
      description: "Payments recorded after the confirmation, oldest first; [] when none (the confirmation's Payment is in Confirmation).",
    }),
    Refunds: Type.Array(OrderRefundRecord, { description: 'Refunds, oldest first; [] when none.' }),
    Returns: Type.Array(OrderReturnRecord, { description: 'What came back, oldest first; [] when nothing.' }),
    Paid: money("What was paid: the confirmation's Payment and the Payments, refunds not taken off."),
    Refunded: money('What was refunded: the sum of the Refunds.'),
  },
  { $id: 'Order' },
);

export const CreateOrderRequest = Type.Object(
  {
    OrderNumber: opt('Unique order number; generated (ORD-000123) when absent.'),
    Note: opt('Free text, up to 1,000 characters.', TEXT_LENGTH),
    ...contentProperties,
  },
  { $id: 'CreateOrder' },
);
export type CreateOrderRequest = Static<typeof CreateOrderRequest>;

export const UpdateOrderRequest = Type.Object(
  {
    OrderId: PathOrderId('Id of the order to update (path).'),
    Note: opt('Free text, up to 1,000 characters; absent: none.', TEXT_LENGTH),
    ...contentProperties,
  },
  { $id: 'UpdateOrder' },
);
export type UpdateOrderRequest = Static<typeof UpdateOrderRequest>;

/** An order's content as a request carries it. */
export type OrderContentFields = Pick<CreateOrderRequest, keyof typeof contentProperties>;

/**
 * CreateOrder's and UpdateOrder's schemas with their rules: the content's, with the currency an
 * order without one gets, run at Currency (the first content property), so that its failures come
 * in field order and a field the schema's checks of the lines would refuse again is named once.
 */
export function orderRequestSchemas(defaultCurrency: string) {
  const content = orderContentRule(defaultCurrency);
  return {
    create: withRules({ ...CreateOrderRequest }, { OrderNumber: orderNumber, Currency: content }),
    update: withRules({ ...UpdateOrderRequest }, { OrderId: orderIdOfPath, Currency: content }),
  };
}

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
      Skus: Type.Optional(
        Type.Array(Type.String({ maxLength: skuLength }), {
          description: 'Orders holding a line of any of these SKUs. Empty or omitted: no filter by SKU.',
          maxItems: LIST_LENGTH,
        }),
      ),
      Currencies: Type.Optional(
        Type.Array(Type.String({ maxLength: 3 }), {
          description: 'ISO 4217 codes; orders in any of them. Empty or omitted: every currency.',
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
      FulfillmentStatuses: Type.Optional(
        Type.Array(Type.Union(FULFILLMENT_STATUSES.map((s) => Type.Literal(s))), {
          description:
            'Unfulfilled, PartiallyFulfilled, Fulfilled, PartiallyReturned or Returned; several match any of them. Empty or omitted: every one.',
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
