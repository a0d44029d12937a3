import type { OrderContent, OrderLineContent } from '../../src/money/index.js';

/** A line in minor units and hundredths of a percent, as the calculator takes it. */
export const line = (Sku: string, Quantity: number, UnitPrice: bigint, TaxRate: number, Discount?: bigint): OrderLineContent => ({
  Sku,
  Name: Sku.toLowerCase(),
  Quantity,
  UnitPrice,
  TaxRate,
  ...(Discount === undefined ? {} : { Discount }),
});

export const order = (Lines: OrderLineContent[], extra: Partial<OrderContent> = {}): OrderContent => ({
  Currency: 'EUR',
  PricesIncludeTax: false,
  Lines,
  ...extra,
});
