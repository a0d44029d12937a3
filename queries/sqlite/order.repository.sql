-- SQLite: the SQL of src/orders/order.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderRepository.touch(orderIds: 3, stamp)
update orders set modified_at = ? where order_id in (?, ?, ?);
-- parameters: [1700000000000,1,2,3]

-- orderRepository.insert(row with a line)
insert into "orders" ("order_number", "note", "created_at", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) returning "order_id", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"EUR",0,null,null,null,"0.30","0.06","0.36","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[{\"LineNumber\":1,\"Sku\":\"PEN\",\"Name\":\"Pen\",\"Quantity\":3,\"UnitPrice\":0.1,\"TaxRate\":19,\"Discount\":0,\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36}],\"Shipping\":null,\"Totals\":{\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36,\"Discount\":0,\"TaxBreakdown\":[{\"TaxRate\":19,\"Net\":0.3,\"Tax\":0.06}]}}","Open",null,1700000000000]

-- orderRepository.insertNew(rows: 2)
insert into "orders" ("order_number", "note", "created_at", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("order_number") do nothing returning "order_id", "order_number", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Open",null,1700000000000,"O-2",null,1700000000000,"EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Open",null,1700000000000]

-- orderRepository.insertNewConfirmed(rows: 1)
insert into "orders" ("order_number", "note", "created_at", "customer_id", "confirmed_at", "confirmation", "confirmation_hash", "currency", "prices_include_tax", "shipping_name", "shipping_amount", "shipping_tax_rate", "total_net", "total_tax", "total_gross", "total_discount", "content_shown", "status", "modified_at", "confirmation_shown") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("order_number") do nothing returning "order_id", "order_number", "status", "payment_status", "fulfillment_status";
-- parameters: ["O-1",null,1700000000000,"c-1",1700000000000,"{}","hash","EUR",0,null,null,null,"0.00","0.00","0.00","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[],\"Shipping\":null,\"Totals\":{\"Net\":0,\"Tax\":0,\"Gross\":0,\"Discount\":0,\"TaxBreakdown\":[]}}","Confirmed",1700000000000,"{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}"]

-- orderRepository.setOrderNumber(orderId, orderNumber)
update "orders" set "order_number" = ? where "order_id" = ?;
-- parameters: ["O-1",1]
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in (?);
-- parameters: [1]

-- orderRepository.orderNumberTaken(orderNumber)
select "order_id" from "orders" where "order_number" = ?;
-- parameters: ["O-1"]

-- orderRepository.find(orderId)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded from orders where order_id = ?;
-- parameters: [1]

-- orderRepository.findShown(orderId)
/* rows as arrays */ select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_shown, currency, prices_include_tax, content_shown, payment_status, fulfillment_status, paid, refunded, case when o.status <> 'Open' then (select json_group_array(json_array(kind, id, amount, t1, t2, t3, at1, at2, line_number, quantity) order by kind, id, line_number) from (select 'P' as kind, payment_id as id, order_id, amount, type as t1, name as t2, reference_number as t3, paid_at as at1, created_at as at2, cast(null as integer) as line_number, cast(null as integer) as quantity from order_payments where order_id = o.order_id union all select 'R', refund_id, order_id, amount, reason, null, reference_number, refunded_at, created_at, null, null from order_refunds where order_id = o.order_id union all select 'S', s.shipment_id, s.order_id, null, s.carrier, s.tracking_number, s.tracking_url, s.shipped_at, null, l.line_number, l.quantity from order_shipments s left join order_shipment_lines l on l.shipment_id = s.shipment_id where s.order_id = o.order_id union all select 'T', r.return_id, r.order_id, null, r.reason, null, null, r.received_at, null, l.line_number, l.quantity from order_returns r left join order_return_lines l on l.return_id = r.return_id where r.order_id = o.order_id) rr) end as records from orders o where o.order_id = ?;
-- parameters: [1]

-- orderRepository.personalDataOfCustomer(customerId)
select "order_id", "confirmation", "note" from "orders" where "customer_id" = ? and ("confirmation" is not null or "note" is not null) order by "order_id";
-- parameters: ["c-1"]

-- orderRepository.replaceConfirmation(orderId, confirmation, hash)
update "orders" set "confirmation" = ?, "confirmation_hash" = ?, "confirmation_shown" = ?, "note" = ? where "order_id" = ?;
-- parameters: ["{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",null,1]
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in (?);
-- parameters: [1]

-- orderRepository.findMany(orderIds: 2)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded from orders where order_id in (?, ?);
-- parameters: [1,2]

-- orderRepository.markConfirmed(orderId, state)
update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?, confirmation_shown = ? where order_id = ? and status = 'Open' returning order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded;
-- parameters: ["c-1",1700000000000,"{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",1]

-- orderRepository.markConfirmed(orderId, state, payments)
update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?, confirmation_shown = ? where order_id = ? and status = 'Open' returning order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown, currency, prices_include_tax, shipping_name, shipping_amount, shipping_tax_rate, total_net, total_tax, total_gross, total_discount, content_shown, payment_status, fulfillment_status, paid, refunded;
-- parameters: ["c-1",1700000000000,"{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",1]

-- orderRepository.replaceContent(orderId, note, content: 1 line)
update "orders" set "note" = ?, "currency" = ?, "prices_include_tax" = ?, "shipping_name" = ?, "shipping_amount" = ?, "shipping_tax_rate" = ?, "total_net" = ?, "total_tax" = ?, "total_gross" = ?, "total_discount" = ?, "content_shown" = ? where "order_id" = ? and "status" = ?;
-- parameters: [null,"EUR",0,null,null,null,"0.30","0.06","0.36","0.00","{\"Currency\":\"EUR\",\"PricesIncludeTax\":false,\"Lines\":[{\"LineNumber\":1,\"Sku\":\"PEN\",\"Name\":\"Pen\",\"Quantity\":3,\"UnitPrice\":0.1,\"TaxRate\":19,\"Discount\":0,\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36}],\"Shipping\":null,\"Totals\":{\"Net\":0.3,\"Tax\":0.06,\"Gross\":0.36,\"Discount\":0,\"TaxBreakdown\":[{\"TaxRate\":19,\"Net\":0.3,\"Tax\":0.06}]}}",1,"Open"]
select "order_id" from "orders" where "order_id" = ?;
-- parameters: [1]

-- orderRepository.markCancelled(orderId, at)
update "orders" set "status" = ?, "cancelled_at" = ? where "order_id" = ? and "status" <> ?;
-- parameters: ["Cancelled",1700000000000,1,"Cancelled"]

-- orderRepository.search(window, limit)
/* rows as arrays */ select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= ? order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,1000]

-- orderRepository.search(every filter, after, limit, offset)
/* rows as arrays */ select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "currency" in (?) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in (?, ?)) and "payment_status" in (?) and "fulfillment_status" in (?) order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled",1000,20]

-- orderRepository.search(window, match: text words 1, limit)
select max(rowid) as n from "order_words";
-- parameters: []
select count(*) as n from (select rowid from "order_text" where "order_text" match ? limit ?);
-- parameters: ["\"anna\"*",5000]
/* rows as arrays */ select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where "modified_at" <= ? and 1 = 0 order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,1000]

-- orderRepository.search(modifiedAfter, keyset after, through)
/* rows as arrays */ select "order_id", "order_number", "status", "note", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown", "currency", "prices_include_tax", "content_shown", "payment_status", "fulfillment_status", "paid", "refunded" from "orders" where (modified_at, order_id) <= (?, ?) and (modified_at, order_id) > (?, ?) order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,9,1699999999990,7,1000]

-- orderRepository.count(every filter)
select count(*) as "n" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "currency" in (?) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in (?, ?)) and "payment_status" in (?) and "fulfillment_status" in (?);
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled"]

-- orderRepository.confirmedIds(every filter)
select "order_id" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "currency" in (?) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in (?, ?)) and "payment_status" in (?) and "fulfillment_status" in (?) and "confirmation" is not null order by "modified_at", "order_id";
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled"]

-- orderRepository.takenOrderNumbers(orderNumbers: 2)
select "order_number" from "orders" where "order_number" in (?, ?);
-- parameters: ["O-1","O-2"]

-- orderRepository.positionsAt(filter, offset, count)
select "modified_at", "order_id" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "currency" in (?) and exists (select "order_lines"."line_number" from "order_lines" where "order_lines"."order_id" = "orders"."order_id" and "order_lines"."sku" in (?, ?)) and "payment_status" in (?) and "fulfillment_status" in (?) order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","EUR","PEN","INK","Paid","Fulfilled",2,99]

-- orderRepository.positionsAt(window, match: text words 2, offset, count)
select max(rowid) as n from "order_words";
-- parameters: []
select count(*) as n from (select rowid from "order_text" where "order_text" match ? limit ?);
-- parameters: ["\"anna\"* \"mull\"*",5000]
select "modified_at", "order_id" from "orders" where "modified_at" <= ? and 1 = 0 order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,2,19]

-- orderRepository.positionsWithin(statuses, match: text words 1, offset, count, budget)
select max(rowid) as n from "order_words";
-- parameters: []
select count(*) as n from (select rowid from "order_text" where "order_text" match ? limit ?);
-- parameters: ["\"anna\"*",100000]
select "orders"."modified_at", "orders"."order_id" from (select "modified_at", "order_id" from "orders" where "modified_at" <= ? and "status" in (?) order by "modified_at", "order_id" limit ?) as "orders" where 1 = 0 order by "orders"."modified_at", "orders"."order_id" limit ? offset ?;
-- parameters: [1700000000000,"Open",10000,2,49]
select "modified_at", "order_id" from "orders" where "modified_at" <= ? and "status" in (?) order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,"Open",1,9999]
