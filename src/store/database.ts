import type { Generated } from 'kysely';

/** Row types of every table; API shapes live in each module's schemas and are mapped in services. */
export interface CustomerRow {
  customer_id: string;
  external_id: string | null;
  salutation: string | null;
  first_name: string | null;
  last_name: string | null;
  postal_code: string | null;
  city: string | null;
  country: string | null;
  street: string | null;
  street_number: string | null;
  company: string | null;
  company2: string | null;
  addition_to_address: string | null;
  quarter: string | null;
  /** Sync stamp in epoch ms: strictly increasing in commit order (see store/sync-clock.ts). */
  modified_at: number;
  created_at: number;
  /** Bumped by every custom-field write; the custom-field ETag. */
  custom_fields_version: number;
  /** When the customer's personal data was last erased; null (or absent in a new row): never. */
  erased_at?: number | null;
}

export interface OrderRow {
  order_id: Generated<number>;
  order_number: string;
  status: 'Open' | 'Confirmed' | 'Cancelled';
  note: string | null;
  customer_id: string | null;
  created_at: number;
  confirmed_at: number | null;
  cancelled_at: number | null;
  /** Sync stamp, as customers' (see store/sync-clock.ts): moved by create, confirm and cancel. */
  modified_at: number;
  /** The confirmed request as JSON (bank data included; masked whenever shown). */
  confirmation: string | null;
  /** Hash of the normalized confirmation request, to tell a retry from a different body. */
  confirmation_hash: string | null;
  /**
   * The confirmation as the feed shows it to a key without the permission `bank`, as JSON text in
   * the wire's default form (orders/order.shown-form.ts); null where not made (the feed makes it).
   */
  confirmation_shown: string | null;
  /** ISO 4217 code (migration 013 and docs/orders.md, "Content"). */
  currency: string;
  /** 1: UnitPrice, Discount and the shipping's Amount include tax; 0: they are net. */
  prices_include_tax: number;
  shipping_name: string | null;
  /** Exact decimal text at the currency's minor unit, as every amount of an order; null: no shipping. */
  shipping_amount: string | null;
  /** Hundredths of a percent (19 % is 1900). */
  shipping_tax_rate: number | null;
  total_net: string;
  total_tax: string;
  total_gross: string;
  total_discount: string;
  /** The content as the API shows it, JSON text in the default form (orders/order.content.ts); null: not made (no lines, zero totals). */
  content_shown: string | null;
  /** Computed from the order's payments and refunds (orders/order-life.status.ts); the feed filters by it. */
  payment_status: Generated<PaymentStatus>;
  /** Computed from the order's shipments and returns (orders/order-shipments.status.ts); the feed filters by it. */
  fulfillment_status: Generated<FulfillmentStatus>;
  /** Paid and refunded so far: exact decimal text at the currency's minor unit (the confirmation's Payment included). */
  paid: Generated<string>;
  refunded: Generated<string>;
}

/** A line of an order (migration 013): amounts as exact decimal text, the tax rate in hundredths of a percent. */
export interface OrderLineRow {
  order_id: number;
  line_number: number;
  sku: string;
  name: string;
  quantity: number;
  unit_price: string;
  tax_rate: number;
  discount: string;
  net: string;
  tax: string;
  gross: string;
}

export type PaymentStatus = 'Unpaid' | 'PartiallyPaid' | 'Paid' | 'PartiallyRefunded' | 'Refunded';
export type FulfillmentStatus = 'Unfulfilled' | 'PartiallyFulfilled' | 'Fulfilled' | 'PartiallyReturned' | 'Returned';

/** A payment of an order (migration 015): its amount as exact decimal text; `name` and `reference_number` are personal. */
export interface OrderPaymentRow {
  payment_id: Generated<number>;
  order_id: number;
  amount: string;
  type: string | null;
  name: string | null;
  reference_number: string | null;
  paid_at: number;
  created_at: number;
}

/** A refund of an order (migration 015); `reference_number` is personal. */
export interface OrderRefundRow {
  refund_id: Generated<number>;
  order_id: number;
  amount: string;
  reason: string | null;
  reference_number: string | null;
  refunded_at: number;
  created_at: number;
}

export interface OrderShipmentRow {
  shipment_id: Generated<number>;
  order_id: number;
  carrier: string | null;
  tracking_number: string | null;
  tracking_url: string | null;
  shipped_at: number;
  created_at: number;
}

export interface OrderReturnRow {
  return_id: Generated<number>;
  order_id: number;
  reason: string | null;
  received_at: number;
  created_at: number;
}

/** A quantity of an order's line in a shipment. */
export interface OrderShipmentLineRow {
  shipment_id: number;
  line_number: number;
  quantity: number;
}

/** A quantity of an order's line in a return. */
export interface OrderReturnLineRow {
  return_id: number;
  line_number: number;
  quantity: number;
}

export interface IdempotencyRow {
  api_key_id: string;
  idempotency_key: string;
  operation: string;
  request_hash: string;
  state: 'running' | 'done';
  response_status: number | null;
  response_body: string | null;
  created_at: number;
}

export interface CustomFieldDefRow {
  number: number;
  label: string;
  field_type: string;
  is_read_only: number;
  /** JSON array of strings, or null. */
  allowed_values: string | null;
  sort: number;
  updated_at: number;
}

export interface CustomFieldValueRow {
  customer_id: string;
  number: number;
  /** The value as JSON text. */
  value: string;
  updated_at: number;
}

/** The single row (id 1) of custom-field bookkeeping. */
export interface CustomFieldMetaRow {
  id: number;
  /** Bumped by every definition change: processes caching definitions compare it with their copy. */
  defs_version: number;
}

export interface ApiKeyRow {
  id: string;
  name: string;
  /** SHA-256 of the whole key, hex. Keys carry ≥ 256 random bits, so a fast hash is enough. */
  key_hash: string;
  permissions: string;
  created_at: number;
  /**
   * The instant (epoch ms) from which every process refuses the key: the revocation's time plus
   * REVOCATION_DELAY_MS (auth/key.model.ts). Null while the key is valid.
   */
  revoked_at: number | null;
  /** When the key last authenticated (epoch ms), written at most once a minute per key. */
  last_used_at: number | null;
}

export interface AuditRow {
  sequence: Generated<number>;
  at: number;
  /** The id `keys list` prints, or `cli`. */
  key_id: string;
  action: string;
  resource_type: string;
  /** JSON array of the ids concerned, as text. */
  resource_ids: string;
}

export interface SyncClockRow {
  id: number;
  last_stamp: number;
  /** The last event sequence handed out (events are numbered under the clock's lock). */
  last_event: number;
  /** Events up to this sequence were deleted by the retention purge. */
  purged_event: number;
}

export interface EventRow {
  sequence: number;
  event_id: string;
  type: string;
  occurred_at: number;
  /** The customer whose personal data the payload may hold. */
  customer_id: string | null;
  /** The order the event is about (order events written since migration 017), else null. */
  order_id: number | null;
  /** JSON text; dates as {"$date": ms}. */
  data: string;
}

export interface WebhookEndpointRow {
  endpoint_id: string;
  url: string;
  /** JSON array of event types; empty: every type. */
  event_types: string;
  description: string;
  disabled_at: number | null;
  disabled_reason: string | null;
  /** Sealed: encrypted when the service has a secret key. */
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  /** The last event sequence handed to this endpoint's delivery jobs. */
  cursor: number;
  created_at: number;
  updated_at: number;
}

export interface WebhookDeliveryRow {
  endpoint_id: string;
  event_sequence: number;
  state: 'Pending' | 'Delivered' | 'Dead';
  attempts: number;
  failures: number;
  next_attempt_at: number;
  lease_until: number | null;
  lease_owner: string | null;
}

export interface WebhookAttemptRow {
  attempt_id: Generated<number>;
  endpoint_id: string;
  event_sequence: number;
  event_id: string;
  attempt: number;
  status: 'Delivered' | 'Failed' | 'Dead';
  response_code: number | null;
  duration_ms: number;
  at: number;
  next_attempt_at: number | null;
  /** Why the attempt failed, in a few words; null when it succeeded. */
  error: string | null;
}

/** A customer's folded words for the text search (migration 011; SQLite adds an integer key of its own). */
export interface CustomerWordsRow {
  customer_id: string;
  words: string;
}

/** An order's folded words for the text search (migration 011), and its statuses' words (018). */
export interface OrderWordsRow {
  order_id: number;
  words: string;
  /** The order's statuses as words (orders/order.words.ts). */
  states: Generated<string>;
}

export interface Database {
  customers: CustomerRow;
  orders: OrderRow;
  order_lines: OrderLineRow;
  order_payments: OrderPaymentRow;
  order_refunds: OrderRefundRow;
  order_shipments: OrderShipmentRow;
  order_shipment_lines: OrderShipmentLineRow;
  order_returns: OrderReturnRow;
  order_return_lines: OrderReturnLineRow;
  idempotency_keys: IdempotencyRow;
  custom_field_defs: CustomFieldDefRow;
  custom_field_values: CustomFieldValueRow;
  custom_field_meta: CustomFieldMetaRow;
  api_keys: ApiKeyRow;
  sync_clock: SyncClockRow;
  audit_log: AuditRow;
  events: EventRow;
  webhook_endpoints: WebhookEndpointRow;
  webhook_deliveries: WebhookDeliveryRow;
  webhook_attempts: WebhookAttemptRow;
  customer_words: CustomerWordsRow;
  order_words: OrderWordsRow;
}
