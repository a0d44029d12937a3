import { demoCustomer } from '../customers/index.js';
import { defineWrite } from '../writes/unit.js';
import type { WriteDoor } from '../writes/write-door.js';
import { sha256 } from '../digest.js';
import type { OrderContent } from '../money/index.js';
import { contentRecord } from './order.content.js';
import { confirmationJson } from './order.mapping.js';
import { confirmationPayments } from './order-life.service.js';
import { orderRepository, type NewConfirmedOrder, type NewOrder } from './order.repository.js';
import type { ConfirmationData } from './order.validation.js';

/** Order number of a seeded order n: `SEED-<n padded>`, so that seeding twice adds nothing. */
export const seedOrderNumber = (n: number): string => `SEED-${String(n).padStart(8, '0')}`;

const BATCH = 5000;
const ROWS_PER_INSERT = 1000;

/**
 * The confirmation of a seeded confirmed order by demo customer n: the customer's own name and
 * address (so that confirming changes no customer), bank and payment data, as a validated
 * ConfirmOrder request stores it.
 */
export function demoConfirmation(n: number): ConfirmationData {
  const c = demoCustomer(n, 0);
  return {
    CustomerId: c.customer_id,
    CustomerSalutation: c.salutation!,
    CustomerFirstName: c.first_name!,
    CustomerLastName: c.last_name!,
    CustomerPostalCode: c.postal_code!,
    CustomerCity: c.city!,
    CustomerCountry: c.country!,
    CustomerStreet: c.street!,
    CustomerStreetNumber: c.street_number!,
    ...(c.company === null ? {} : { CustomerCompany: c.company }),
    CustomerEMail: `kunde.${n}@example.org`,
    CustomerIban: 'DE89370400440532013000',
    CustomerBic: 'COBADEFFXXX',
    AccountHolderName: `${c.first_name} ${c.last_name}`,
    PaymentMethod: 'Lastschrift',
    ShippingMethod: 'DHL',
    Payment: { Amount: 49.95, Name: 'Anzahlung', Type: 'PayPal' },
  };
}

/** What seeds orders first..last: orders up to `confirmedThrough` confirmed by demo customers 1..customers in turn. */
export interface SeedRange {
  readonly first: number;
  readonly last: number;
  readonly createdAt: number;
  readonly confirmedThrough: number;
  readonly customers: number;
  /** Lines of every order; absent: 1–5 by the order's number. */
  readonly lines?: number;
}

/** What seeded orders hold: articles with realistic prices (cents) and German VAT rates (hundredths of a percent). */
const CATALOG: ReadonlyArray<readonly [sku: string, name: string, unitPrice: bigint, taxRate: number]> = [
  ['PEN-BLUE', 'Ballpoint pen, blue', 120n, 1900],
  ['NOTE-A5', 'Notebook A5', 349n, 1900],
  ['BOOK-42', 'Paperback', 1250n, 700],
  ['MUG-WHITE', 'Mug, white', 890n, 1900],
  ['COFFEE-500', 'Coffee beans, 500 g', 999n, 700],
  ['CABLE-USBC', 'USB-C cable, 1 m', 1495n, 1900],
  ['TEA-GREEN', 'Green tea, 100 g', 450n, 700],
];

/** Seeded order k's content: 1–5 lines of the catalogue (or `lines`) and DHL shipping, the same for the same k. */
export function seededContent(k: number, lineCount?: number): OrderContent {
  const count = lineCount ?? 1 + ((k * 7) % 5);
  const lines = Array.from({ length: count }, (_, j) => {
    const [Sku, Name, UnitPrice, TaxRate] = CATALOG[(k * 3 + j * 5) % CATALOG.length]!;
    return { Sku, Name, Quantity: 1 + ((k + j) % 4), UnitPrice, TaxRate };
  });
  return { Currency: 'EUR', PricesIncludeTax: false, Lines: lines, Shipping: { Name: 'DHL', Amount: 490n, TaxRate: 1900 } };
}

function seededOrder(k: number, range: SeedRange): NewOrder | NewConfirmedOrder {
  const order: NewOrder = {
    order_number: seedOrderNumber(k),
    note: null,
    created_at: range.createdAt,
    content: contentRecord(seededContent(k, range.lines)),
  };
  if (k > range.confirmedThrough) return order;
  const data = demoConfirmation(((k - 1) % range.customers) + 1);
  const confirmation = confirmationJson(data);
  const confirmed = {
    ...order,
    customer_id: data.CustomerId!,
    confirmed_at: range.createdAt,
    confirmation,
    confirmation_hash: sha256(confirmation),
  };
  return { ...confirmed, ...confirmationPayments({ order_id: k }, data.Payment) };
}

/** Inserts seeded orders first..last that do not exist yet; answers how many were new. */
export const seedOrdersWrite = defineWrite('order.seed', async (unit, range: SeedRange): Promise<number> => {
  let inserted = 0;
  for (let i = range.first; i <= range.last; i += ROWS_PER_INSERT) {
    const open: NewOrder[] = [];
    const confirmed: NewConfirmedOrder[] = [];
    for (let k = i; k <= Math.min(range.last, i + ROWS_PER_INSERT - 1); k++) {
      const order = seededOrder(k, range);
      if ('confirmation' in order) confirmed.push(order);
      else open.push(order);
    }
    const ids = [
      ...(confirmed.length > 0 ? await orderRepository.insertNewConfirmed(unit.db, confirmed) : []),
      ...(open.length > 0 ? await orderRepository.insertNew(unit.db, open) : []),
    ];
    for (const id of ids) unit.touch('order', String(id));
    inserted += ids.length;
  }
  return inserted;
});

export interface SeedOrdersOptions {
  /** Seeded orders 1..confirmed are confirmed (default none). */
  readonly confirmed?: number;
  /** Demo customers C00000001…: who confirms (needed when `confirmed` is given; they must exist). */
  readonly customers?: number;
  /** Lines of every order (the benchmarks' orders of five lines); absent: 1–5 by the order's number. */
  readonly lines?: number;
}

/**
 * Creates orders 1..count (existing order numbers are skipped, whatever their state): open, or the
 * first `confirmed` of them confirmed by the demo customers in turn. Returns how many were new.
 */
export async function seedOrders(
  writes: WriteDoor,
  count: number,
  onProgress: (done: number) => void = () => undefined,
  options: SeedOrdersOptions = {},
): Promise<number> {
  const confirmedThrough = options.confirmed ?? 0;
  const customers = options.customers ?? 0;
  if (confirmedThrough > 0 && customers < 1) throw new Error('confirmed seeded orders need demo customers to confirm them');
  let inserted = 0;
  const createdAt = Date.now();
  for (let first = 1; first <= count; first += BATCH) {
    const last = Math.min(count, first + BATCH - 1);
    inserted += await writes.run(seedOrdersWrite, {
      first,
      last,
      createdAt,
      confirmedThrough,
      customers,
      ...(options.lines === undefined ? {} : { lines: options.lines }),
    });
    onProgress(last);
  }
  return inserted;
}
