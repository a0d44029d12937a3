import { wireDate, type DateWriter, type WireDateValue } from '../wire/serializer.js';
import type { CustomerAddress } from '../customers/index.js';
import { contentView } from './order.content.js';
import { lifeView } from './order-life.views.js';
import type { ShownOrder, StoredOrder } from './order.statements.js';
import { CONFIRMATION_TEXT_FIELDS, type ConfirmationTextField } from './order.schemas.js';
import {
  CONFIRMATION_STORAGE_NAMES,
  fromStoredAnswer,
  PAYMENT_STORAGE_NAMES,
  storedConfirmationJson,
  toStoredAnswer,
} from './order.stored-form.js';
import type { ConfirmationData } from './order.validation.js';

/** What a confirmation answers (and an Idempotency-Key replays); dates in epoch ms. */
export interface ConfirmAnswer {
  readonly OrderId: number;
  readonly OrderNumber: string;
  readonly Status: 'Confirmed';
  readonly CustomerId: string;
  readonly ConfirmedAt: number;
}

export const toConfirmResponse = (a: ConfirmAnswer) => ({ ...a, ConfirmedAt: wireDate(a.ConfirmedAt) as WireDateValue });

export const answerOf = (order: StoredOrder): ConfirmAnswer => ({
  OrderId: order.order_id,
  OrderNumber: order.order_number,
  Status: 'Confirmed',
  CustomerId: order.customer_id ?? '',
  ConfirmedAt: order.confirmed_at ?? 0,
});

/**
 * The confirmation as stored with the order and hashed: storage names (order.stored-form.ts),
 * sorted at every level, so that equal data gives equal text and retries compare by content.
 */
export const confirmationJson = (data: ConfirmationData): string => storedConfirmationJson(data);

/** The answer as `idempotency_keys.response_body` keeps it: storage names, not the wire's. */
export const storedAnswer = (a: ConfirmAnswer): Record<string, unknown> => toStoredAnswer(a);

/** A stored answer as the wire shows it again: the same names, in the same order, as the first time. */
export const answerFromStored = (stored: unknown): ConfirmAnswer => fromStoredAnswer(stored) as unknown as ConfirmAnswer;

/** `DE89370400440532013000` → `DE89********3000`: country and check digits, then the last four. */
export function maskIban(iban: string): string {
  return iban.length <= 8 ? '*'.repeat(iban.length) : `${iban.slice(0, 4)}********${iban.slice(-4)}`;
}

/** `COBADEFFXXX` → `COBA****XXX`: the bank code stays, country and location go, a branch code stays. */
export const maskBic = (bic: string): string => `${bic.slice(0, 4)}****${bic.slice(8)}`;

/** Bank data as a key without the permission `bank` sees it: masked when present (docs/orders.md, "Bank data and the audit log"). */
const BANK_MASKS: ReadonlyArray<[ConfirmationTextField, (value: string) => string]> = [
  ['CustomerIban', maskIban],
  ['CustomerBic', maskBic],
  ['CustomerSepaMandateReference', () => '***'],
  ['AccountHolderName', () => '***'],
];

/** How a view shows bank data: in full only to a key with the permission `bank`. */
export type BankData = 'masked' | 'revealed';

const ADDRESS: ReadonlyArray<[keyof ConfirmationData, keyof CustomerAddress]> = [
  ['CustomerSalutation', 'salutation'],
  ['CustomerFirstName', 'first_name'],
  ['CustomerLastName', 'last_name'],
  ['CustomerPostalCode', 'postal_code'],
  ['CustomerCity', 'city'],
  ['CustomerCountry', 'country'],
  ['CustomerStreet', 'street'],
  ['CustomerStreetNumber', 'street_number'],
  ['CustomerCompany', 'company'],
  ['CustomerCompany2', 'company2'],
  ['AdditionToAddress', 'addition_to_address'],
];

/** The customer columns a confirmation sets: fields it carries overwrite, `""` clears, absent ones stay. */
export function addressOf(data: ConfirmationData): CustomerAddress {
  const out: Record<string, string | null> = {};
  for (const [field, column] of ADDRESS) {
    const v = data[field];
    if (typeof v === 'string') out[column] = v === '' ? null : v;
  }
  return out as CustomerAddress;
}

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);

type Stored = Readonly<Record<string, unknown>>;

const S = CONFIRMATION_STORAGE_NAMES;
const P = PAYMENT_STORAGE_NAMES;

const paymentView = (p: Stored | null | undefined, date: DateWriter) =>
  p
    ? {
        Amount: orNull(p[P.Amount]),
        Name: orNull(p[P.Name]),
        Date: date(p[P.Date] as number | undefined),
        ReferenceNumber: orNull(p[P.ReferenceNumber]),
        FinancialAccountNumber: orNull(p[P.FinancialAccountNumber]),
        Type: orNull(p[P.Type]),
      }
    : null;

// The view is written from the name tables once, at load, as one object literal read straight from
// the stored names (as customers/customer.mapping.ts does): no object in API names in between, and
// every view gets its shape at once. The order feed maps every confirmed order of its window. The
// names are the tables' constants.
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from the column constants, never from input
const storedToView = new Function(
  's',
  'orNull',
  'date',
  'paymentView',
  `return { ${CONFIRMATION_TEXT_FIELDS.map((f) => `${f}: orNull(s.${S[f]})`).join(', ')}, ` +
    `CustomerSepaMandateDate: date(s.${S.CustomerSepaMandateDate}), DeliveryDate: date(s.${S.DeliveryDate}), Payment: paymentView(s.${S.Payment}, date) };`,
) as (s: Stored, o: typeof orNull, d: DateWriter, p: typeof paymentView) => Record<string, unknown>;

/**
 * The stored confirmation as GET /orders/{OrderId} shows it: every field present, bank data masked
 * unless revealed; dates as `date` writes them (WireDateValues unless a stream writes them as text).
 */
export function toConfirmationView(
  json: string | null,
  bank: BankData = 'masked',
  date: DateWriter = wireDate,
): Record<string, unknown> | null {
  if (json === null) return null;
  const view = storedToView(JSON.parse(json) as Stored, orNull, date, paymentView);
  if (bank === 'masked') {
    for (const [f, mask] of BANK_MASKS) {
      const v = view[f];
      if (typeof v === 'string' && v !== '') view[f] = mask(v);
    }
  }
  return view;
}

export function toOrderView(order: ShownOrder, bank: BankData = 'masked', date: DateWriter = wireDate) {
  return {
    OrderId: order.order_id,
    OrderNumber: order.order_number,
    Status: order.status,
    CustomerId: order.customer_id,
    CreatedAt: date(order.created_at),
    ConfirmedAt: date(order.confirmed_at),
    CancelledAt: date(order.cancelled_at),
    Note: order.note,
    Confirmation: toConfirmationView(order.confirmation, bank, date),
    ...contentView(order),
    ...lifeView(order, date),
  };
}

type FeedItem = ReturnType<typeof toOrderView> & { LastModified: ReturnType<DateWriter> };

/**
 * An order of the feed: the GET /orders/{OrderId} shape and LastModified (added to the view: no copy
 * of it). A feed writes its dates as text in the response's style (serializer.ts dateText).
 */
export function toFeedItem(order: ShownOrder, bank: BankData, date: DateWriter = wireDate): FeedItem {
  const item = toOrderView(order, bank, date) as FeedItem;
  item.LastModified = date(order.modified_at);
  return item;
}

/** Whether an order shows bank data that the mask would hide (what an unmasked read reveals). */
export const hasBankData = (order: ShownOrder): boolean => order.confirmation !== null;
