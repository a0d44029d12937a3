import { Type, type Static } from '@sinclair/typebox';
import { CURRENCY_CODES, exactDecimalOf, minorDigitsOf } from '../money/index.js';
import { NAME_LENGTH, NotNull, TEXT_LENGTH, withRules, type FieldRule } from '../wire/request-schema.js';
import { Nullable, WireDate } from '../wire/schema-types.js';
import { idempotencyKeyRule, orderIdOfPath, paymentType } from './order.rules.js';

// The records of an order's life after its confirmation, as requests and answers (docs/orders.md,
// "After the confirmation"). An amount's decimals are checked against the order's currency once the
// order is read; here only against the most any currency has.

/** Every amount recorded is below this, in major units (as every amount of an order). */
export const RECORDED_AMOUNT_BELOW = 1e12;
const MOST_DIGITS = Math.max(...CURRENCY_CODES.map((c) => minorDigitsOf(c) ?? 0));

const recordedAmount: FieldRule = (rules, field, value) => {
  if (typeof value !== 'number' || rules.hasFailed(field)) return;
  if (value >= RECORDED_AMOUNT_BELOW) return void rules.fail(field, 'LessThan', `'${field}' must be less than '${RECORDED_AMOUNT_BELOW}'.`);
  const { scale } = exactDecimalOf(value);
  if (scale > MOST_DIGITS)
    rules.fail(field, 'ScalePrecision', `'${field}' must not have more than ${MOST_DIGITS} decimals. ${scale} decimals were found.`);
};

const PathOrderId = Type.Integer({
  description: 'Id of the order (path). A body OrderId must be absent, 0 or equal to it.',
  exclusiveMinimum: 0,
});
const Amount = (what: string) =>
  NotNull(
    Type.Number({
      description: `${what}: greater than 0, at most the decimals of the order's currency (EUR 2). Required.`,
      exclusiveMinimum: 0,
    }),
  );
const optText = (description: string, maxLength = NAME_LENGTH) => Type.Optional(Type.String({ description, maxLength }));

export const CreatePaymentRequest = withRules(
  Type.Object(
    {
      OrderId: PathOrderId,
      Amount: Amount('Amount paid'),
      Type: Type.Optional(Type.String({ description: 'Type of payment: PayPal, Unknown or an empty string.', examples: ['PayPal'] })),
      Name: optText('Name of the payment (personal: erased with the customer).'),
      ReferenceNumber: optText('The reference number of the payment (personal: erased with the customer).'),
      Date: Type.Optional(WireDate({ description: 'When it was paid; when it was recorded if absent.' })),
    },
    { $id: 'CreateOrderPayment' },
  ),
  { ...idempotencyKeyRule, OrderId: orderIdOfPath, Amount: recordedAmount, Type: paymentType },
);
export type CreatePaymentRequest = Static<typeof CreatePaymentRequest>;

export const CreateRefundRequest = withRules(
  Type.Object(
    {
      OrderId: PathOrderId,
      Amount: Amount('Amount refunded; at most what was paid and not yet refunded'),
      Reason: optText('Why it was refunded, up to 1,000 characters.', TEXT_LENGTH),
      ReferenceNumber: optText('The reference number of the refund (personal: erased with the customer).'),
      Date: Type.Optional(WireDate({ description: 'When it was refunded; when it was recorded if absent.' })),
    },
    { $id: 'CreateOrderRefund' },
  ),
  { ...idempotencyKeyRule, OrderId: orderIdOfPath, Amount: recordedAmount },
);
export type CreateRefundRequest = Static<typeof CreateRefundRequest>;

export const OrderPaymentRecord = Type.Object(
  {
    PaymentId: Type.Integer(),
    OrderId: Type.Integer(),
    Amount: Type.Number(),
    Type: Nullable(Type.String()),
    Name: Nullable(Type.String()),
    ReferenceNumber: Nullable(Type.String()),
    Date: WireDate(),
  },
  { $id: 'OrderPaymentRecord' },
);

export const OrderRefundRecord = Type.Object(
  {
    RefundId: Type.Integer(),
    OrderId: Type.Integer(),
    Amount: Type.Number(),
    Reason: Nullable(Type.String()),
    ReferenceNumber: Nullable(Type.String()),
    Date: WireDate(),
  },
  { $id: 'OrderRefundRecord' },
);

/** A quantity of one of the order's lines in a shipment or a return. */
export const OrderRecordLine = Type.Object(
  {
    LineNumber: Type.Integer({ description: "The order's line (its LineNumber)." }),
    Quantity: Type.Integer({ description: 'How many of it.' }),
  },
  { $id: 'OrderRecordLine' },
);

export const OrderShipmentRecord = Type.Object(
  {
    ShipmentId: Type.Integer(),
    OrderId: Type.Integer(),
    Lines: Type.Array(OrderRecordLine, { description: 'What was shipped, by line number.', examples: [[{ LineNumber: 1, Quantity: 2 }]] }),
    Carrier: Nullable(Type.String()),
    TrackingNumber: Nullable(Type.String()),
    TrackingUrl: Nullable(Type.String()),
    ShippedAt: WireDate(),
  },
  { $id: 'OrderShipmentRecord' },
);

export const OrderReturnRecord = Type.Object(
  {
    ReturnId: Type.Integer(),
    OrderId: Type.Integer(),
    Lines: Type.Array(OrderRecordLine, { description: 'What came back, by line number.', examples: [[{ LineNumber: 1, Quantity: 1 }]] }),
    Reason: Nullable(Type.String()),
    ReceivedAt: WireDate(),
  },
  { $id: 'OrderReturnRecord' },
);
