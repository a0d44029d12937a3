import { Type, type Static } from '@sinclair/typebox';
import { ORDER_CONTENT_LIMITS } from '../money/index.js';
import { NAME_LENGTH, NotNull, TEXT_LENGTH, withRules, type FieldRule } from '../wire/request-schema.js';
import { WireDate } from '../wire/schema-types.js';
import { idempotencyKeyRule, orderIdOfPath } from './order.rules.js';
import { groupedThousands } from './order.schemas.js';

// Shipments and returns of a confirmed order as requests (docs/orders.md, "After the confirmation");
// their records are in order-life.schemas.ts, beside payments and refunds. Whether a quantity is
// left to ship or to return is known once the order is read.

const { maxLines, maxQuantity } = ORDER_CONTENT_LIMITS;

/** A quantity of one of the order's lines, as a shipment or a return holds it. */
export const RecordLineRequest = Type.Object(
  {
    LineNumber: NotNull(Type.Integer({ description: 'The LineNumber of the order line (as GetOrder shows it). Required.', minimum: 1 })),
    Quantity: NotNull(
      Type.Integer({
        description: `Units of that line, 1–${groupedThousands(maxQuantity)}. Required.`,
        minimum: 1,
        maximum: maxQuantity,
      }),
    ),
  },
  { $id: 'OrderRecordLineRequest' },
);
export type RecordLineRequest = Static<typeof RecordLineRequest>;

/** Each line once: a second entry of a LineNumber is a mistake, not a sum (400 on its LineNumber). */
const distinctLines: FieldRule = (rules, field, value) => {
  if (value === undefined || value === null) return;
  if (rules.notEmpty(field, value).hasFailed(field)) return;
  const seen = new Set<number>();
  (value as RecordLineRequest[]).forEach((line, i) => {
    if (seen.has(line.LineNumber)) rules.fail(`${field}[${i}].LineNumber`, 'Predicate', `'${field}[${i}].LineNumber' names a line twice.`);
    seen.add(line.LineNumber);
  });
};

/** A link a person may open: an absolute http(s) URL. */
const httpUrl: FieldRule = (rules, field, value) => {
  if (typeof value !== 'string' || value === '') return;
  let protocol: string | undefined;
  try {
    protocol = new URL(value).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'http:' && protocol !== 'https:') rules.fail(field, 'Predicate', `'${field}' must be an absolute http(s) URL.`);
};

const PathOrderId = Type.Integer({
  description: 'Id of the order (path). A body OrderId must be absent, 0 or equal to it.',
  exclusiveMinimum: 0,
});
const optText = (description: string, maxLength = NAME_LENGTH) => Type.Optional(Type.String({ description, maxLength }));
const lines = (description: string) => Type.Array(RecordLineRequest, { description, maxItems: maxLines });

export const CreateShipmentRequest = withRules(
  Type.Object(
    {
      OrderId: PathOrderId,
      Lines: Type.Optional(
        lines(
          `The quantities shipped, each at most what is left to ship of its line, up to ${groupedThousands(maxLines)} lines. ` +
            'Omitted: every quantity not yet shipped.',
        ),
      ),
      Carrier: optText('Who carries it (DHL, UPS …).'),
      TrackingNumber: optText("The carrier's tracking number."),
      TrackingUrl: optText('Where the parcel can be followed: an absolute http(s) URL.'),
      ShippedAt: Type.Optional(WireDate({ description: 'When it was shipped; when it was recorded if absent.' })),
    },
    { $id: 'CreateOrderShipment' },
  ),
  { ...idempotencyKeyRule, OrderId: orderIdOfPath, Lines: distinctLines, TrackingUrl: httpUrl },
);
export type CreateShipmentRequest = Static<typeof CreateShipmentRequest>;

export const CreateReturnRequest = withRules(
  Type.Object(
    {
      OrderId: PathOrderId,
      Lines: lines(
        `The quantities returned, each at most what was shipped and not yet returned of its line, up to ${groupedThousands(maxLines)} lines. Required.`,
      ),
      Reason: optText('Why it came back, up to 1,000 characters.', TEXT_LENGTH),
      ReceivedAt: Type.Optional(WireDate({ description: 'When it was received back; when it was recorded if absent.' })),
    },
    { $id: 'CreateOrderReturn' },
  ),
  { ...idempotencyKeyRule, OrderId: orderIdOfPath, Lines: distinctLines },
);
export type CreateReturnRequest = Static<typeof CreateReturnRequest>;
