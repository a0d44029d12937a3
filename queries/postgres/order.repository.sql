-- PostgreSQL: the SQL of src/orders/order.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderRepository.touch(orderIds: 3, stamp)
update orders set modified_at = $1 where order_id in ($2, $3, $4);
-- parameters: [1700000000000,1,2,3]

-- orderRepository.insert(row with a line)
insert into "orders" ("order_number", "note", "created_at", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "customer_id", "modified_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) returning "order_id", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"EUR",0,null,null,null,"0.30","0.06","0.36","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[{\"LineNumber\":1,\"Sku\":\"PEN\",\"Name\":\"Pen\",\"Quantity\":3,\"UnitPrice\":0.1,\"TaxRate\":19,\"Discount\":0,\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36}],\"Shipping\":null,\"Totals\":{\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36,\"Discount\":0,\"TaxBreakdown\":[{\"TaxRate\":19,\"Net\":0.3,\"Tax\":0.06}]}}","Open",null,1700000000000]

-- orderRepository.insertNew(rows: 2)
insert into "orders" ("order_number", "note", "created_at", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "customer_id", "modified_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16), ($17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32) on conflict ("order_number") do nothing returning "order_id", "order_number", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Open",null,1700000000000,"O-2",null,1700000000000,"EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Open",null,1700000000000]

-- orderRepository.insertNewConfirmed(rows: 1)
insert into "orders" ("order_number", "note", "created_at", "customer_id", "confirmed_at", "confirmation", "confirmation_hash", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "modified_at", "confirmation_shown") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) on conflict ("order_number") do nothing returning "order_id", "order_number", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"c-1",1700000000000,"{}","hash","EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Confirmed",1700000000000,"{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}"]

-- orderRepository.setOrderNumber(orderId, orderNumber)
update "orders" set "order_number" = $1 where "order_id" = $2;
-- parameters: ["O-1",1]
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in ($1);
-- parameters: [1]

-- orderRepository.orderNumberTaken(orderNumber)
select "order_id" from "orders" where "order_number" = $1;
-- parameters: ["O-1"]

-- orderRepository.find(orderId)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded from orders where order_id = $1;
-- parameters: [1]

-- orderRepository.findShown(orderId)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_shown, currency, prices_include_tax, content_shown, payment_status, fulfillment_status, paid, refunded, case when o.status <> 'Open' then (select json_agg(json_build_array(kind, id, amount, t1, t2, t3, at1, at2, line_number, quantity) order by kind, id, line_number) from (select 'P' as kind, payment_id as id, order_id, amount, type as t1, name as t2, reference_number as t3, paid_at as at1, created_at as at2, cast(null as integer) as line_number, cast(null as integer) as quantity from order_payments where order_id = o.order_id union all select 'R', refund_id, order_id, amount, reason, null, reference_number, refunded_at, created_at, null, null from order_refunds where order_id = o.order_id union all select 'S', s.shipment_id, s.order_id, null, s.carrier, s.tracking_number, s.tracking_url, s.shipped_at, null, l.line_number, l.quantity from order_shipments s left join order_shipment_lines l on l.shipment_id = s.shipment_id where s.order_id = o.order_id union all select 'T', r.return_id, r.order_id, null, r.reason, null, null, r.received_at, null, l.line_number, l.quantity from order_returns r left join order_return_lines l on l.return_id = r.return_id where r.order_id = o.order_id) rr) end as records from orders o where o.order_id = $1;
-- parameters: [1]

-- orderRepository.personalDataOfCustomer(customerId)
select "order_id", "confirmation", "note" from "orders" where "customer_id" = $1 and ("confirmation" is not null or "note" is not null) order by "order_id";
-- parameters: ["c-1"]

-- orderRepository.replaceConfirmation(orderId, confirmation, hash)
update "orders" set "confirmation" = $1, "confirmation_hash" = $2, "confirmation_shown" = $3, "note" = $4 where "order_id" = $5;
-- parameters: ["{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",null,1]
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in ($1);
-- parameters: [1]

-- orderRepository.findMany(orderIds: 2)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded from orders where order_id in ($1, $2);
-- parameters: [1,2]

-- orderRepository.markConfirmed(orderId, state)
update orders set status = 'Confirmed', customer_id = $1, confirmed_at = $2, confirmation = $3, confirmation_hash = $4, confirmation_shown = $5 where order_id = $6 and status = 'Open' returning order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded;
-- parameters: ["c-1",1700000000000,"{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",1]

-- orderRepository.markConfirmed(orderId, state, payments)
update orders set status = 'Confirmed', customer_id = $1, confirmed_at = $2, confirmation = $3, confirmation_hash = $4, confirmation_shown = $5 where order_id = $6 and status = 'Open' returning order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded;
-- parameters: ["c-1",1700000000000,"{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",1]

-- orderRepository.replaceContent(orderId, note, content: 1 line)
update "orders" set "note" = $1, "currency" = $2, "prices_include_tax" = $3, "shipping_name" = $4, "shipping_amount" = $5, "shipping_tax_rate" = $6, "total_net" = $7, "total_tax" = $8, "total_gross" = $9, "total_discount" = $10, "content_shown" = $11 where "order_id" = $12 and "status" = $13;
-- parameters: [null,"EUR",0,null,null,null,"0.30","0.06","0.36","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[{\"LineNumber\":1,\"Sku\":\"PEN\",\"Name\":\"Pen\",\"Quantity\":3,\"UnitPrice\":0.1,\"TaxRate\":19,\"Discount\":0,\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36}],\"Shipping\":null,\"Totals\":{\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36,\"Discount\":0,\"TaxBreakdown\":[{\"TaxRate\":19,\"Net\":0.3,\"Tax\":0.06}]}}",1,"Open"]
select "order_id" from "orders" where "order_id" = $1;
-- parameters: [1]

-- orderRepository.markCancelled(orderId, at)
update "orders" set "status" = $1, "cancelled_at" = $2 where "order_id" = $3 and "status" <> $4;
-- parameters: ["Cancelled",1700000000000,1,"Cancelled"]

-- orderRepository.search(window, limit)
select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= $1 order by "modified_at", "order_id" limit $2;
-- parameters: [1700000000000,1000]

-- orderRepository.search(every filter, after, limit, offset)
select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= $1 and "modified_at" > $2 and "order_id" in ($3, $4) and "order_number" in ($5) and "customer_id" in ($6) and "status" in ($7, $8) and "currency" in ($9) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in ($10, $11)) and "payment_status" in ($12) and "fulfillment_status" in ($13) order by "modified_at", "order_id" limit $14 offset $15;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled",1000,20]

-- orderRepository.search(window, match: text words 1, limit)
select (select reltuples from pg_class where oid = $1::regclass) as n, array[count(*) filter (where (' ' || w.words) like $2), count(*) filter (where (' ' || w.words) like $3), count(*)] as h from (select words from "order_words" order by "order_id" limit $4) w;
-- parameters: ["order_words","% anna%","% anna%",1000]
select w."order_id" as k from "order_words" w where array_to_tsvector(string_to_array(w.words, ' ') || string_to_array(w.states, ' ')) @@ $1::tsquery limit $2;
-- parameters: ["'anna':*",5000]
select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= $1 and 1 = 0 order by "modified_at", "order_id" limit $2;
-- parameters: [1700000000000,1000]

-- orderRepository.search(modifiedAfter, keyset after, through)
select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where (modified_at, order_id) <= ($1, $2) and (modified_at, order_id) > ($3, $4) order by "modified_at", "order_id" limit $5;
-- parameters: [1700000000000,9,1699999999990,7,1000]

-- orderRepository.count(every filter)
select count(*) as "n" from "orders" where "modified_at" <= $1 and "modified_at" > $2 and "order_id" in ($3, $4) and "order_number" in ($5) and "customer_id" in ($6) and "status" in ($7, $8) and "currency" in ($9) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in ($10, $11)) and "payment_status" in ($12) and "fulfillment_status" in ($13);
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled"]

-- orderRepository.confirmedIds(every filter)
select "order_id" from "orders" where "modified_at" <= $1 and "modified_at" > $2 and "order_id" in ($3, $4) and "order_number" in ($5) and "customer_id" in ($6) and "status" in ($7, $8) and "currency" in ($9) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in ($10, $11)) and "payment_status" in ($12) and "fulfillment_status" in ($13) and "confirmation" is not null order by "modified_at", "order_id";
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled"]

-- orderRepository.takenOrderNumbers(orderNumbers: 2)
select "order_number" from "orders" where "order_number" in ($1, $2);
-- parameters: ["O-1","O-2"]

-- orderRepository.positionsAt(filter, offset, count)
select "modified_at", "order_id" from "orders" where "modified_at" <= $1 and "modified_at" > $2 and "order_id" in ($3, $4) and "order_number" in ($5) and "customer_id" in ($6) and "status" in ($7, $8) and "currency" in ($9) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in ($10, $11)) and "payment_status" in ($12) and "fulfillment_status" in ($13) order by "modified_at", "order_id" limit $14 offset $15;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled",2,99]

-- orderRepository.positionsAt(window, match: text words 2, offset, count)
select (select reltuples from pg_class where oid = $1::regclass) as n, array[count(*) filter (where (' ' || w.words) like $2), count(*) filter (where (' ' || w.words) like $3), count(*) filter (where (' ' || w.words) like $4 and (' ' || w.words) like $5), count(*)] as h from (select words from "order_words" order by "order_id" limit $6) w;
-- parameters: ["order_words","% anna%","% mull%","% anna%","% mull%",1000]
select w."order_id" as k from "order_words" w where array_to_tsvector(string_to_array(w.words, ' ') || string_to_array(w.states, ' ')) @@ $1::tsquery limit $2;
-- parameters: ["'anna':* & 'mull':*",5000]
select "modified_at", "order_id" from "orders" where "modified_at" <= $1 and 1 = 0 order by "modified_at", "order_id" limit $2 offset $3;
-- parameters: [1700000000000,2,19]

-- orderRepository.positionsWithin(statuses, match: text words 1, offset, count, budget)
select (select reltuples from pg_class where oid = $1::regclass) as n, array[count(*) filter (where (' ' || w.words) like $2), count(*) filter (where (' ' || w.words) like $3), count(*)] as h from (select words from "order_words" order by "order_id" limit $4) w;
-- parameters: ["order_words","% anna%","% anna%",1000]
select "orders"."modified_at", "orders"."order_id" from (select "modified_at", "order_id" from "orders" where "modified_at" <= $1 and "status" in ($2) order by "modified_at", "order_id" limit $3) as "orders" where coalesce("orders"."order_id" in (select w."order_id" from "order_words" w where array_to_tsvector(string_to_array(w.words, ' ') || string_to_array(w.states, ' ')) @@ $4::tsquery), false) order by "orders"."modified_at", "orders"."order_id" limit $5 offset $6;
-- parameters: [1700000000000,"Open",10000,"'anna':*",2,49]
select "modified_at", "order_id" from "orders" where "modified_at" <= $1 and "status" in ($2) order by "modified_at", "order_id" limit $3 offset $4;
-- parameters: [1700000000000,"Open",1,9999]
