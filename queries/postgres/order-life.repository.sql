-- PostgreSQL: the SQL of src/orders/order-life.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderLifeRepository.lockOrder(orderId)
select order_id, status, currency, total_gross, payment_status, paid, refunded from orders where order_id = $1 for update;
-- parameters: [1]

-- orderLifeRepository.insertPayment(payment)
insert into order_payments (order_id, amount, type, name, reference_number, paid_at, created_at) values ($1, $2, $3, $4, $5, $6, $7) returning payment_id, order_id, amount, type, name, reference_number, paid_at, created_at;
-- parameters: [1,"12.30","PayPal","Rest","PP-1",1700000000000,1700000000000]

-- orderLifeRepository.insertRefund(refund)
insert into order_refunds (order_id, amount, reason, reference_number, refunded_at, created_at) values ($1, $2, $3, $4, $5, $6) returning refund_id, order_id, amount, reason, reference_number, refunded_at, created_at;
-- parameters: [1,"2.00","Damaged","RF-1",1700000000000,1700000000000]

-- orderLifeRepository.setPayments(orderId, state)
update orders set paid = $1, refunded = $2, payment_status = $3 where order_id = $4;
-- parameters: ["12.30","2.00","PartiallyRefunded",1]
update order_words set states = (select '~s' || lower(status) || ' ~p' || lower(payment_status) || ' ~f' || lower(fulfillment_status) from orders where orders.order_id = $1) where order_id = $2;
-- parameters: [1,1]

-- orderLifeRepository.setPaymentColumns(orderId, state)
update orders set paid = $1, refunded = $2, payment_status = $3 where order_id = $4;
-- parameters: ["12.30","0.00","PartiallyPaid",1]

-- orderLifeRepository.findPayment(paymentId)
select payment_id, order_id, amount, type, name, reference_number, paid_at, created_at from order_payments where payment_id = $1;
-- parameters: [1]

-- orderLifeRepository.findRefund(refundId)
select refund_id, order_id, amount, reason, reference_number, refunded_at, created_at from order_refunds where refund_id = $1;
-- parameters: [1]

-- orderLifeRepository.erasePersonal(orderIds: 2)
update "order_payments" set "name" = $1, "reference_number" = $2 where "order_id" in ($3, $4);
-- parameters: [null,null,1,2]
update "order_refunds" set "reference_number" = $1 where "order_id" in ($2, $3);
-- parameters: [null,1,2]

-- orderLifeRepository.ordersWithPersonalRecords(customerId)
select "order_id" from "orders" where "customer_id" = $1 and (exists (select "payment_id" from "order_payments" where "order_payments"."order_id" = "orders"."order_id" and ("name" is not null or "reference_number" is not null)) or exists (select "refund_id" from "order_refunds" where "order_refunds"."order_id" = "orders"."order_id" and "reference_number" is not null));
-- parameters: ["c-1"]
