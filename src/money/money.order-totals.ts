import type { Amounts, LineAmounts, OrderAmounts, OrderContent, TaxRateAmounts } from './order-content.types.js';
import { divideHalfAwayFromZero, largestRemainderShares } from './money.rounding.js';
import { MAX_TAX_RATE_HUNDREDTHS } from './money.tax-rates.js';

// Hundredths of a percent per whole: tax = amount × rate / 10,000.
const WHOLE = BigInt(MAX_TAX_RATE_HUNDREDTHS);

/** A line or the shipping: what it costs after its discount (net or gross as the prices are), and what orders its ties. */
interface Item {
  readonly amount: bigint;
  readonly rate: number;
  /** Content only, never the position, so that equal remainders are settled the same whatever the line order. */
  readonly key: readonly (string | bigint | number)[];
}

/**
 * The order's amounts (docs/orders.md): tax per tax rate on that rate's summed amounts, halves away
 * from zero; each line's and the shipping's tax is its share of its rate's tax by largest
 * remainder. Gross = Net + Tax per line, per rate and in total, and everything sums exactly.
 */
export function orderAmounts(content: OrderContent): OrderAmounts {
  const items = itemsOf(content);
  const taxes: bigint[] = items.map(() => 0n);
  const breakdown: TaxRateAmounts[] = [];
  for (const [rate, members] of byRate(items)) {
    const sum = members.reduce((s, i) => s + (items[i] as Item).amount, 0n);
    const tax = rateTax(sum, rate, content.PricesIncludeTax);
    const shares = largestRemainderShares(
      tax,
      members.map((i) => (items[i] as Item).amount),
      (a, b) => compareItems(items[members[a] as number] as Item, items[members[b] as number] as Item) || a - b,
    );
    members.forEach((i, k) => (taxes[i] = shares[k] as bigint));
    breakdown.push({ TaxRate: rate, Net: content.PricesIncludeTax ? sum - tax : sum, Tax: tax });
  }
  const amounts = items.map((item, i) => amountsOf(item.amount, taxes[i] as bigint, content.PricesIncludeTax));
  const lineCount = content.Lines.length;
  const net = breakdown.reduce((s, r) => s + r.Net, 0n);
  const tax = breakdown.reduce((s, r) => s + r.Tax, 0n);
  return {
    Lines: amounts.slice(0, lineCount).map((a, i): LineAmounts => ({ LineNumber: i + 1, ...a })),
    Shipping: content.Shipping === undefined ? null : (amounts[lineCount] as Amounts),
    Totals: {
      Net: net,
      Tax: tax,
      Gross: net + tax,
      Discount: content.Lines.reduce((s, l) => s + (l.Discount ?? 0n), 0n),
      TaxBreakdown: breakdown,
    },
  };
}

/** A rate's tax on its summed net amounts, or the tax inside its summed gross amounts: gross × r / (100 + r). */
function rateTax(sum: bigint, rate: number, pricesIncludeTax: boolean): bigint {
  const r = BigInt(rate);
  return pricesIncludeTax ? divideHalfAwayFromZero(sum * r, WHOLE + r) : divideHalfAwayFromZero(sum * r, WHOLE);
}

function amountsOf(amount: bigint, tax: bigint, pricesIncludeTax: boolean): Amounts {
  return pricesIncludeTax ? { Net: amount - tax, Tax: tax, Gross: amount } : { Net: amount, Tax: tax, Gross: amount + tax };
}

function itemsOf(content: OrderContent): Item[] {
  const items: Item[] = content.Lines.map((l) => {
    const discount = l.Discount ?? 0n;
    return {
      amount: BigInt(l.Quantity) * l.UnitPrice - discount,
      rate: l.TaxRate,
      key: [0, l.Sku, l.Name, l.Quantity, l.UnitPrice, discount],
    };
  });
  const shipping = content.Shipping;
  if (shipping !== undefined)
    items.push({ amount: shipping.Amount, rate: shipping.TaxRate, key: [1, shipping.Name ?? '', 0, shipping.Amount, 0n] });
  return items;
}

/** The items' indexes grouped by tax rate, lowest rate first. */
function byRate(items: readonly Item[]): [number, number[]][] {
  const groups = new Map<number, number[]>();
  items.forEach((item, i) => {
    const group = groups.get(item.rate);
    if (group) group.push(i);
    else groups.set(item.rate, [i]);
  });
  return [...groups].sort(([a], [b]) => a - b);
}

/** Larger amounts first, then by content; strings by code unit, so no locale decides. */
function compareItems(a: Item, b: Item): number {
  if (a.amount !== b.amount) return a.amount > b.amount ? -1 : 1;
  for (let k = 0; k < a.key.length; k++) {
    const x = a.key[k] as string | bigint | number;
    const y = b.key[k] as string | bigint | number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}
