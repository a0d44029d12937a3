-- SQLite: the SQL of src/orders/order-life.records.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderRecordsRepository.recordsOf(orderIds: 3 (bound as 4))
/* rows as arrays */ select "payment_id", "order_id", "amount", "type", "name", "reference_number", "paid_at", "created_at" from "order_payments" where "order_id" in (?, ?, ?, ?) order by "order_id", "payment_id";
-- parameters: [1,2,3,3]
/* rows as arrays */ select "refund_id", "order_id", "amount", "reason", "reference_number", "refunded_at", "created_at" from "order_refunds" where "order_id" in (?, ?, ?, ?) order by "order_id", "refund_id";
-- parameters: [1,2,3,3]
/* rows as arrays */ select "s"."shipment_id", "s"."order_id", "s"."carrier", "s"."tracking_number", "s"."tracking_url", "s"."shipped_at", "l"."line_number", "l"."quantity" from "order_shipments" as "s" left join "order_shipment_lines" as "l" on "l"."shipment_id" = "s"."shipment_id" where "s"."order_id" in (?, ?, ?, ?) order by "s"."order_id", "s"."shipment_id", "l"."line_number";
-- parameters: [1,2,3,3]
/* rows as arrays */ select "r"."return_id", "r"."order_id", "r"."reason", "r"."received_at", "l"."line_number", "l"."quantity" from "order_returns" as "r" left join "order_return_lines" as "l" on "l"."return_id" = "r"."return_id" where "r"."order_id" in (?, ?, ?, ?) order by "r"."order_id", "r"."return_id", "l"."line_number";
-- parameters: [1,2,3,3]

-- withRecords(orders: 1 confirmed, 1 open)
/* rows as arrays */ select "payment_id", "order_id", "amount", "type", "name", "reference_number", "paid_at", "created_at" from "order_payments" where "order_id" in (?) order by "order_id", "payment_id";
-- parameters: [1]
/* rows as arrays */ select "refund_id", "order_id", "amount", "reason", "reference_number", "refunded_at", "created_at" from "order_refunds" where "order_id" in (?) order by "order_id", "refund_id";
-- parameters: [1]
/* rows as arrays */ select "s"."shipment_id", "s"."order_id", "s"."carrier", "s"."tracking_number", "s"."tracking_url", "s"."shipped_at", "l"."line_number", "l"."quantity" from "order_shipments" as "s" left join "order_shipment_lines" as "l" on "l"."shipment_id" = "s"."shipment_id" where "s"."order_id" in (?) order by "s"."order_id", "s"."shipment_id", "l"."line_number";
-- parameters: [1]
/* rows as arrays */ select "r"."return_id", "r"."order_id", "r"."reason", "r"."received_at", "l"."line_number", "l"."quantity" from "order_returns" as "r" left join "order_return_lines" as "l" on "l"."return_id" = "r"."return_id" where "r"."order_id" in (?) order by "r"."order_id", "r"."return_id", "l"."line_number";
-- parameters: [1]
