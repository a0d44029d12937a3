// The shapes the console reads, as the API answers them (PascalCase, ISO 8601 dates: see client.ts).
// They follow the service's schemas (src/*/…schemas.ts) and design.md; fields that are landing in
// the API later are optional, and the console shows them only when present.

/** The 14 spec fields of a customer, in the spec's order. */
export const CUSTOMER_FIELDS = [
  'CustomerId',
  'ExternalId',
  'Salutation',
  'FirstName',
  'LastName',
  'PostalCode',
  'City',
  'Country',
  'Street',
  'StreetNumber',
  'Company',
  'Company2',
  'AdditionToAddress',
  'Quarter',
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];
export type Customer = { readonly CustomerId: string } & { readonly [K in Exclude<CustomerField, 'CustomerId'>]: string | null };

export const FIELD_TYPES = ['Text', 'Number', 'Decimal', 'Boolean', 'Date', 'Select', 'MultiSelect'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export interface CustomFieldDefinition {
  readonly Number: number;
  readonly Label: string;
  readonly FieldType: FieldType;
  readonly IsReadOnly: boolean;
  readonly AllowedValues: readonly string[] | null;
  readonly Sort: number;
}

export interface CustomField extends CustomFieldDefinition {
  readonly Value: unknown;
}

export type OrderStatus = 'Open' | 'Confirmed' | 'Cancelled';

export interface OrderLine {
  readonly LineNumber: number;
  readonly Sku: string;
  readonly Name: string;
  readonly Quantity: number;
  readonly UnitPrice: number;
  readonly TaxRate: number;
  readonly Discount?: number | null;
  readonly Net: number;
  readonly Tax: number;
  readonly Gross: number;
}

export interface Totals {
  readonly Net: number;
  readonly Tax: number;
  readonly Gross: number;
  readonly Discount: number;
  readonly TaxBreakdown?: ReadonlyArray<{ TaxRate: number; Net: number; Tax: number }>;
}

export interface Shipment {
  readonly ShipmentId: number;
  readonly Lines?: ReadonlyArray<{ LineNumber: number; Quantity: number }>;
  readonly Carrier?: string | null;
  readonly TrackingNumber?: string | null;
  readonly TrackingUrl?: string | null;
  readonly ShippedAt?: string | null;
}

export interface MoneyRecord {
  readonly PaymentId?: number;
  readonly RefundId?: number;
  readonly Amount: number;
  readonly Type?: string | null;
  readonly Name?: string | null;
  readonly Reason?: string | null;
  readonly ReferenceNumber?: string | null;
  readonly Date?: string | null;
}

export interface ReturnRecord {
  readonly ReturnId: number;
  readonly Lines?: ReadonlyArray<{ LineNumber: number; Quantity: number }>;
  readonly Reason?: string | null;
  readonly ReceivedAt?: string | null;
}

export interface Order {
  readonly OrderId: number;
  readonly OrderNumber: string;
  readonly Status: OrderStatus;
  readonly CustomerId: string | null;
  readonly CreatedAt: string;
  readonly ConfirmedAt: string | null;
  readonly CancelledAt: string | null;
  /** The order's own note (CreateOrder, UpdateOrder); the confirmation's is in Confirmation. */
  readonly Note: string | null;
  readonly Confirmation: Record<string, unknown> | null;
  readonly LastModified?: string;
  readonly Currency?: string;
  readonly PricesIncludeTax?: boolean;
  readonly Lines?: readonly OrderLine[];
  readonly Shipping?: { Name?: string | null; Amount: number; TaxRate: number } | null;
  readonly Totals?: Totals;
  readonly FulfillmentStatus?: string;
  readonly PaymentStatus?: string;
  readonly Shipments?: readonly Shipment[];
  readonly Payments?: readonly MoneyRecord[];
  readonly Refunds?: readonly MoneyRecord[];
  readonly Returns?: readonly ReturnRecord[];
  readonly Paid?: number;
  readonly Refunded?: number;
}

export interface FeedEvent {
  readonly Sequence: number;
  readonly Type: string;
  readonly OccurredAt?: string;
  readonly At?: string;
  readonly Data?: Record<string, unknown>;
}
