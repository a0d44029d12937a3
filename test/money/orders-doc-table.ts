import { FieldRules } from '../../src/wire/field-rules.js';
import {
  decimalTextOf,
  minorDigitsOf,
  orderAmounts,
  readOrderContent,
  taxRatePercentOf,
  type OrderContentRequest,
} from '../../src/money/index.js';

/** One row of docs/orders.md's table of worked examples, computed from its request cell. */
export function workedExampleRow(example: string, request: OrderContentRequest): string {
  const rules = new FieldRules();
  const content = readOrderContent(rules, request, 'EUR');
  if (!content) throw new Error(`${example}: ${JSON.stringify(rules.errors)}`);
  const digits = minorDigitsOf(content.Currency) as number;
  const money = (units: bigint): string => decimalTextOf(units, digits);
  const { Lines, Shipping, Totals } = orderAmounts(content);
  const lines = Lines.map((l) => `${l.LineNumber}: ${money(l.Net)} + ${money(l.Tax)} = ${money(l.Gross)}`);
  if (Shipping) lines.push(`shipping: ${money(Shipping.Net)} + ${money(Shipping.Tax)} = ${money(Shipping.Gross)}`);
  const breakdown = Totals.TaxBreakdown.map((r) => `${taxRatePercentOf(r.TaxRate)} %: ${money(r.Net)} + ${money(r.Tax)}`);
  const totals =
    `${money(Totals.Net)} + ${money(Totals.Tax)} = ${money(Totals.Gross)}` +
    (Totals.Discount ? ` (Discount ${money(Totals.Discount)})` : '');
  return `| ${example} | \`${JSON.stringify(request)}\` | ${breakdown.join('<br>')} | ${lines.join('<br>')} | ${totals} |`;
}
