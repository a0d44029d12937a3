/** An order line with its amounts in minor units and its tax rate in hundredths of a percent (money.tax-rates.ts). */
export interface OrderLineContent {
  readonly Sku: string;
  readonly Name: string;
  readonly Quantity: number;
  readonly UnitPrice: bigint;
  readonly TaxRate: number;
  /** Amount off the whole line (not per unit), ≤ Quantity × UnitPrice. */
  readonly Discount?: bigint;
}

export interface ShippingContent {
  readonly Name?: string;
  readonly Amount: bigint;
  readonly TaxRate: number;
}

/** What an order holds, parsed: amounts net or gross as `PricesIncludeTax` says. */
export interface OrderContent {
  readonly Currency: string;
  readonly PricesIncludeTax: boolean;
  readonly Lines: readonly OrderLineContent[];
  readonly Shipping?: ShippingContent;
}

export interface Amounts {
  readonly Net: bigint;
  readonly Tax: bigint;
  readonly Gross: bigint;
}

export interface LineAmounts extends Amounts {
  /** 1, 2, … in the order of the lines. */
  readonly LineNumber: number;
}

export interface TaxRateAmounts {
  readonly TaxRate: number;
  readonly Net: bigint;
  readonly Tax: bigint;
}

export interface OrderTotals extends Amounts {
  /** The lines' discounts summed, net or gross as the prices are; already taken off Net and Gross. */
  readonly Discount: bigint;
  /** One entry per tax rate that occurs, lowest rate first. */
  readonly TaxBreakdown: readonly TaxRateAmounts[];
}

export interface OrderAmounts {
  readonly Lines: readonly LineAmounts[];
  readonly Shipping: Amounts | null;
  readonly Totals: OrderTotals;
}
