import type { OrderLineRow, OrderRow } from '../store/database.js';
import {
  decimalTextOf,
  minorDigitsOf,
  orderAmounts,
  orderAmountsWire,
  taxRatePercentOf,
  wireNumberOf,
  type OrderContent,
} from '../money/index.js';

// What an order holds and costs (docs/orders.md, "Content"), between the money module's exact
// amounts and the store. Its amounts are computed once, when the content is written, and stored
// twice: exactly (decimal text at the currency's minor unit, in `orders` and `order_lines`), and as
// the API shows them (`orders.content_shown`, JSON text in the default form), which every read
// splices or parses instead of reading the lines and adding up again (the feed sends up to 10^6
// orders a request). Content holds no dates and no personal data, so that one text serves every key
// and date style.

/** The order's columns that hold its content (everything but the lines). */
export type ContentColumns = Pick<
  OrderRow,
  | 'currency'
  | 'prices_include_tax'
  | 'shipping_name'
  | 'shipping_amount'
  | 'shipping_tax_rate'
  | 'total_net'
  | 'total_tax'
  | 'total_gross'
  | 'total_discount'
  | 'content_shown'
>;

/** A line as stored, without its order's id. */
export type ContentLine = Omit<OrderLineRow, 'order_id'>;

/** Content computed and laid out for the store. */
export interface ContentRecord {
  readonly columns: ContentColumns;
  readonly lines: readonly ContentLine[];
}

/** An order's content as the API shows it. */
export interface ContentView {
  readonly Currency: string;
  readonly PricesIncludeTax: boolean;
  readonly Lines: ReadonlyArray<{
    readonly LineNumber: number;
    readonly Sku: string;
    readonly Name: string;
    readonly Quantity: number;
    readonly UnitPrice: number;
    readonly TaxRate: number;
    readonly Discount: number;
    readonly Net: number;
    readonly Tax: number;
    readonly Gross: number;
  }>;
  readonly Shipping: {
    readonly Name: string | null;
    readonly Amount: number;
    readonly TaxRate: number;
    readonly Net: number;
    readonly Tax: number;
    readonly Gross: number;
  } | null;
  readonly Totals: {
    readonly Net: number;
    readonly Tax: number;
    readonly Gross: number;
    readonly Discount: number;
    readonly TaxBreakdown: ReadonlyArray<{ readonly TaxRate: number; readonly Net: number; readonly Tax: number }>;
  };
}

const digitsOf = (currency: string): number => minorDigitsOf(currency) ?? 2;

/** The content's amounts (money/money.order-totals.ts), laid out as the order's columns and its lines. */
export function contentRecord(content: OrderContent): ContentRecord {
  const digits = digitsOf(content.Currency);
  const text = (units: bigint): string => decimalTextOf(units, digits);
  const amounts = orderAmounts(content);
  const wire = orderAmountsWire(amounts, digits);
  const n = (units: bigint): number => wireNumberOf(units, digits);
  const shipping = content.Shipping;
  const view: ContentView = {
    Currency: content.Currency,
    PricesIncludeTax: content.PricesIncludeTax,
    Lines: content.Lines.map((l, i) => {
      const a = wire.Lines[i]!;
      return {
        LineNumber: a.LineNumber,
        Sku: l.Sku,
        Name: l.Name,
        Quantity: l.Quantity,
        UnitPrice: n(l.UnitPrice),
        TaxRate: taxRatePercentOf(l.TaxRate),
        Discount: n(l.Discount ?? 0n),
        Net: a.Net,
        Tax: a.Tax,
        Gross: a.Gross,
      };
    }),
    Shipping:
      shipping === undefined || wire.Shipping === null
        ? null
        : { Name: shipping.Name ?? null, Amount: n(shipping.Amount), TaxRate: taxRatePercentOf(shipping.TaxRate), ...wire.Shipping },
    Totals: wire.Totals,
  };
  const { Totals } = amounts;
  return {
    columns: {
      currency: content.Currency,
      prices_include_tax: content.PricesIncludeTax ? 1 : 0,
      shipping_name: shipping?.Name ?? null,
      shipping_amount: shipping === undefined ? null : text(shipping.Amount),
      shipping_tax_rate: shipping?.TaxRate ?? null,
      total_net: text(Totals.Net),
      total_tax: text(Totals.Tax),
      total_gross: text(Totals.Gross),
      total_discount: text(Totals.Discount),
      content_shown: JSON.stringify(view),
    },
    lines: content.Lines.map((l, i): ContentLine => {
      const a = amounts.Lines[i]!;
      return {
        line_number: a.LineNumber,
        sku: l.Sku,
        name: l.Name,
        quantity: l.Quantity,
        unit_price: text(l.UnitPrice),
        tax_rate: l.TaxRate,
        discount: text(l.Discount ?? 0n),
        net: text(a.Net),
        tax: text(a.Tax),
        gross: text(a.Gross),
      };
    }),
  };
}

/** No lines and no shipping, in EUR: an order made below the API without content (tests, tools). */
export const NO_CONTENT: ContentRecord = contentRecord({ Currency: 'EUR', PricesIncludeTax: false, Lines: [] });

/** The columns of an order's content that its view is made from. */
export type ShownContent = Pick<OrderRow, 'currency' | 'prices_include_tax' | 'content_shown'>;

/** The content of an order whose content text was not made (stored before content existed): no lines, zero totals. */
const emptyContentText = (order: ShownContent): string =>
  `{"Currency":${JSON.stringify(order.currency)},"PricesIncludeTax":${order.prices_include_tax === 1},"Lines":[],"Shipping":null,` +
  `"Totals":{"Net":0,"Tax":0,"Gross":0,"Discount":0,"TaxBreakdown":[]}}`;

/** The order's content as JSON text in the default form: `{"Currency":…,"Totals":{…}}`. */
export const contentText = (order: ShownContent): string => order.content_shown ?? emptyContentText(order);

/** The order's content as the view shows it (a fresh object: views are written in other casings). */
export const contentView = (order: ShownContent): ContentView => JSON.parse(contentText(order)) as ContentView;
