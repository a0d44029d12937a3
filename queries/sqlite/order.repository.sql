-- SQLite: the SQL of src/orders/order.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderRepository.touch(orderIds: 3, stamp)
update orders set modified_at = ? where order_id in (?, ?, ?);
-- parameters: [1700000000000,1,2,3]

-- orderRepository.insert(row)
insert into "orders" ("order_number", "note", "created_at", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?) returning "order_id";
-- parameters: ["O-1",null,1700000000000,"Open",null,1700000000000]

-- orderRepository.insertNew(rows: 2)
insert into "orders" ("order_number", "note", "created_at", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?) on conflict ("order_number") do nothing returning "order_id", "order_number";
-- parameters: ["O-1",null,1700000000000,"Open",null,1700000000000,"O-2",null,1700000000000,"Open",null,1700000000000]

-- orderRepository.insertNewConfirmed(rows: 1)
insert into "orders" ("order_number", "note", "created_at", "customer_id", "confirmed_at", "confirmation", "confirmation_hash", "status", "modified_at", "confirmation_shown") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("order_number") do nothing returning "order_id", "order_number";
-- parameters: ["O-1",null,1700000000000,"c-1",1700000000000,"{}","hash","Confirmed",1700000000000,"{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}"]

-- orderRepository.setOrderNumber(orderId, orderNumber)
update "orders" set "order_number" = ? where "order_id" = ?;
-- parameters: ["O-1",1]
select "order_id", "order_number", "customer_id", "confirmation" from "orders" where "order_id" in (?);
-- parameters: [1]

-- orderRepository.orderNumberTaken(orderNumber)
select "order_id" from "orders" where "order_number" = ?;
-- parameters: ["O-1"]

-- orderRepository.find(orderId)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown from orders where order_id = ?;
-- parameters: [1]

-- orderRepository.findShown(orderId)
select order_id, order_number, status, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_shown from orders where order_id = ?;
-- parameters: [1]

-- orderRepository.personalDataOfCustomer(customerId)
select "order_id", "confirmation", "note" from "orders" where "customer_id" = ? and ("confirmation" is not null or "note" is not null) order by "order_id";
-- parameters: ["c-1"]

-- orderRepository.replaceConfirmation(orderId, confirmation, hash)
update "orders" set "confirmation" = ?, "confirmation_hash" = ?, "confirmation_shown" = ?, "note" = ? where "order_id" = ?;
-- parameters: ["{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",null,1]
select "order_id", "order_number", "customer_id", "confirmation" from "orders" where "order_id" in (?);
-- parameters: [1]

-- orderRepository.findMany(orderIds: 2)
select order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown from orders where order_id in (?, ?);
-- parameters: [1,2]

-- orderRepository.markConfirmed(orderId, state)
update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ?, confirmation_shown = ? where order_id = ? and status = 'Open' returning order_id, order_number, status, note, customer_id, created_at, confirmed_at, cancelled_at, modified_at, confirmation, confirmation_hash, confirmation_shown;
-- parameters: ["c-1",1700000000000,"{}","hash","{\"CustomerId\":null,\"CustomerSalutation\":null,\"CustomerFirstName\":null,\"CustomerLastName\":null,\"CustomerPostalCode\":null,\"CustomerCity\":null,\"CustomerCountry\":null,\"CustomerStreet\":null,\"CustomerStreetNumber\":null,\"CustomerCompany\":null,\"CustomerCompany2\":null,\"AdditionToAddress\":null,\"DeliveryAddressSalutation\":null,\"DeliveryAddressFirstName\":null,\"DeliveryAddressLastName\":null,\"DeliveryAddressPostalCode\":null,\"DeliveryAddressCity\":null,\"DeliveryAddressCountry\":null,\"DeliveryAddressStreet\":null,\"DeliveryAddressStreetNumber\":null,\"DeliveryAddressCompany\":null,\"AdditionToDeliveryAddress\":null,\"CustomerIban\":null,\"CustomerBic\":null,\"CustomerSepaMandateReference\":null,\"AccountHolderName\":null,\"CustomerEMail\":null,\"Note\":null,\"PaymentMethod\":null,\"ShippingMethod\":null,\"ExternalCustomerId\":null,\"OrderNumber\":null,\"MediaCode\":null,\"CustomerSepaMandateDate\":null,\"DeliveryDate\":null,\"Payment\":null}",1]

-- orderRepository.markCancelled(orderId, at)
update "orders" set "status" = ?, "cancelled_at" = ? where "order_id" = ? and "status" <> ?;
-- parameters: ["Cancelled",1700000000000,1,"Cancelled"]

-- orderRepository.search(window, limit)
/* rows as arrays */ select "order_id", "order_number", "status", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown" from "orders" where "modified_at" <= ? order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,1000]

-- orderRepository.search(every filter, after, limit, offset)
/* rows as arrays */ select "order_id", "order_number", "status", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "payment_status" in (?) order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","Paid",1000,20]

-- orderRepository.search(window, match: text words 1, limit)
select max(rowid) as n from "order_words";
-- parameters: []
select count(*) as n from (select rowid from "order_text" where "order_text" match ? limit ?);
-- parameters: ["\"anna\"*",5000]
/* rows as arrays */ select "order_id", "order_number", "status", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown" from "orders" where "modified_at" <= ? and 1 = 0 order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,1000]

-- orderRepository.search(modifiedAfter, keyset after, through)
/* rows as arrays */ select "order_id", "order_number", "status", "customer_id", "created_at", "confirmed_at", "cancelled_at", "modified_at", "confirmation", null as "confirmation_shown" from "orders" where (modified_at, order_id) <= (?, ?) and (modified_at, order_id) > (?, ?) order by "modified_at", "order_id" limit ?;
-- parameters: [1700000000000,9,1699999999990,7,1000]

-- orderRepository.count(every filter)
select count(*) as "n" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "payment_status" in (?);
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","Paid"]

-- orderRepository.confirmedIds(every filter)
select "order_id" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "payment_status" in (?) and "confirmation" is not null order by "modified_at", "order_id";
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","Paid"]

-- orderRepository.takenOrderNumbers(orderNumbers: 2)
select "order_number" from "orders" where "order_number" in (?, ?);
-- parameters: ["O-1","O-2"]

-- orderRepository.positionsAt(filter, offset, count)
select "modified_at", "order_id" from "orders" where "modified_at" <= ? and "modified_at" > ? and "order_id" in (?, ?) and "order_number" in (?) and "customer_id" in (?) and "status" in (?, ?) and "payment_status" in (?) order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,1699999999000,1,2,"O-1","c-1","Confirmed","Cancelled","Paid",2,99]

-- orderRepository.positionsAt(window, match: text words 2, offset, count)
select max(rowid) as n from "order_words";
-- parameters: []
select count(*) as n from (select rowid from "order_text" where "order_text" match ? limit ?);
-- parameters: ["\"anna\"* \"mull\"*",5000]
select "modified_at", "order_id" from "orders" where "modified_at" <= ? and 1 = 0 order by "modified_at", "order_id" limit ? offset ?;
-- parameters: [1700000000000,2,19]
