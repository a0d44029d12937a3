import { orderAmounts, type OrderContent } from '../src/money/index.js';

// What exact amounts cost in bigint, against the same rule in `number` (exact only while every
// product stays below 2^53, which the order limits do not promise): one 5-line order's amounts,
// computed again and again. Prints the median of 7 rounds, in µs per order.
//   node --import tsx bench/money-totals.ts

const LINES: [string, number, number, number, number][] = [
  ['MUG', 2, 999, 1900, 0],
  ['BOOK', 1, 499, 700, 0],
  ['CARD', 3, 115, 1900, 0],
  ['LAMP', 2, 4999, 1900, 1000],
  ['TEA', 7, 399, 700, 0],
];
const BIGINT_ORDER: OrderContent = {
  Currency: 'EUR',
  PricesIncludeTax: false,
  Lines: LINES.map(([Sku, Quantity, p, TaxRate, d]) => ({ Sku, Name: Sku, Quantity, UnitPrice: BigInt(p), TaxRate, Discount: BigInt(d) })),
  Shipping: { Amount: 490n, TaxRate: 1900 },
};
const NUMBER_ITEMS = [...LINES.map(([sku, q, p, r, d]) => ({ sku, amount: q * p - d, rate: r })), { sku: '~', amount: 490, rate: 1900 }];

type NumberItem = (typeof NUMBER_ITEMS)[number];

/** Larger remainder first, then larger amount, then SKU: the tie rule of money.order-totals.ts. */
const byRemainder = (a: { rest: number; item: NumberItem }, b: { rest: number; item: NumberItem }): number =>
  b.rest - a.rest || b.item.amount - a.item.amount || (a.item.sku < b.item.sku ? -1 : 1);

/** The rule of money.order-totals.ts in numbers: per-rate tax half away from zero, shares by largest remainder. */
function numberAmounts(items: readonly NumberItem[]): { net: number; tax: number; taxes: number[] } {
  const taxes = items.map(() => 0);
  const rates = [...new Set(items.map((i) => i.rate))].sort((a, b) => a - b);
  let net = 0;
  let tax = 0;
  for (const rate of rates) {
    const members = items.flatMap((item, index) => (item.rate === rate ? [{ item, index, rest: 0 }] : []));
    const sum = members.reduce((s, m) => s + m.item.amount, 0);
    const product = sum * rate;
    const rateTax = Math.floor(product / 10_000) + (2 * (product % 10_000) >= 10_000 ? 1 : 0);
    let left = rateTax;
    for (const m of members) {
      taxes[m.index] = Math.floor((rateTax * m.item.amount) / sum);
      m.rest = (rateTax * m.item.amount) % sum;
      left -= taxes[m.index] ?? 0;
    }
    for (const m of members.sort(byRemainder).slice(0, left)) taxes[m.index] = (taxes[m.index] ?? 0) + 1;
    net += sum;
    tax += rateTax;
  }
  return { net, tax, taxes };
}

function microsPerOrder(run: () => unknown, times: number): number {
  const start = process.hrtime.bigint();
  for (let i = 0; i < times; i++) run();
  return Number(process.hrtime.bigint() - start) / 1000 / times;
}

const check = orderAmounts(BIGINT_ORDER);
const numbers = numberAmounts(NUMBER_ITEMS);
if (Number(check.Totals.Net) !== numbers.net || Number(check.Totals.Tax) !== numbers.tax) throw new Error('the two ways disagree');
const TIMES = 50_000;
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;
const rounds = { bigint: [] as number[], number: [] as number[] };
for (let round = 0; round < 8; round++) {
  const b = microsPerOrder(() => orderAmounts(BIGINT_ORDER), TIMES);
  const n = microsPerOrder(() => numberAmounts(NUMBER_ITEMS), TIMES);
  if (round > 0) {
    rounds.bigint.push(b);
    rounds.number.push(n);
  } // the first round warms up
}
console.log(`5 lines + shipping: bigint ${median(rounds.bigint).toFixed(2)} µs/order, number ${median(rounds.number).toFixed(2)} µs/order`);

const LARGEST: OrderContent = {
  Currency: 'CLF',
  PricesIncludeTax: true,
  Lines: Array.from({ length: 1000 }, (_, i) => ({
    Sku: `S${i}`,
    Name: 'n',
    Quantity: 1_000_000,
    UnitPrice: 10n ** 16n - 1n - BigInt(i),
    TaxRate: [0, 700, 1900, 10000][i % 4] ?? 0,
  })),
};
const largest: number[] = [];
for (let round = 0; round < 6; round++) largest.push(microsPerOrder(() => orderAmounts(LARGEST), 50));
console.log(`1,000 lines at the largest amounts: bigint ${median(largest.slice(1)).toFixed(0)} µs/order`);
