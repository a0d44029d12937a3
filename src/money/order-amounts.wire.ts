import type { Amounts, OrderAmounts } from './order-content.types.js';
import { wireNumberOf } from './money.decimal-amounts.js';
import { taxRatePercentOf } from './money.tax-rates.js';

type WireAmounts = { readonly [K in keyof Amounts]: number };

/** An order's amounts as the wire shows them: JSON numbers in the currency's unit, tax rates in percent. */
export interface OrderAmountsWire {
  readonly Lines: readonly (WireAmounts & { readonly LineNumber: number })[];
  readonly Shipping: WireAmounts | null;
  readonly Totals: WireAmounts & {
    readonly Discount: number;
    readonly TaxBreakdown: readonly { readonly TaxRate: number; readonly Net: number; readonly Tax: number }[];
  };
}

/** `orderAmounts`' answer for a currency with `digits` minor-unit digits, in the wire's numbers. */
export function orderAmountsWire(amounts: OrderAmounts, digits: number): OrderAmountsWire {
  const n = (units: bigint): number => wireNumberOf(units, digits);
  const wire = (a: Amounts): WireAmounts => ({ Net: n(a.Net), Tax: n(a.Tax), Gross: n(a.Gross) });
  const { Totals } = amounts;
  return {
    Lines: amounts.Lines.map((l) => ({ LineNumber: l.LineNumber, ...wire(l) })),
    Shipping: amounts.Shipping === null ? null : wire(amounts.Shipping),
    Totals: {
      ...wire(Totals),
      Discount: n(Totals.Discount),
      TaxBreakdown: Totals.TaxBreakdown.map((r) => ({ TaxRate: taxRatePercentOf(r.TaxRate), Net: n(r.Net), Tax: n(r.Tax) })),
    },
  };
}
