-- SQLite: the SQL of src/orders/order.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderRepository.touch(orderIds: 3, stamp)
update orders set modified_at = ? where order_id in (?, ?, ?);
-- parameters: [1700000000000,1,2,3]

-- orderRepository.insert(row)
insert into "orders" ("order_number", "note", "created_at", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?) returning "order_id";
-- parameters: ["O-1",null,1700000000000,"Open",null,1700000000000]

-- orderRepository.insertNew(rows: 2)
insert into "orders" ("order_number", "note", "created_at", "status", "customer_id", "modified_at") values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?) on conflict ("order_number") do nothing returning "order_id";
-- parameters: ["O-1",null,1700000000000,"Open",null,1700000000000,"O-2",null,1700000000000,"Open",null,1700000000000]

-- orderRepository.setOrderNumber(orderId, orderNumber)
update "orders" set "order_number" = ? where "order_id" = ?;
-- parameters: ["O-1",1]

-- orderRepository.orderNumberTaken(orderNumber)
select "order_id" from "orders" where "order_number" = ?;
-- parameters: ["O-1"]

-- orderRepository.find(orderId)
select * from orders where order_id = ?;
-- parameters: [1]

-- orderRepository.markConfirmed(orderId, state)
update orders set status = 'Confirmed', customer_id = ?, confirmed_at = ?, confirmation = ?, confirmation_hash = ? where order_id = ? and status = 'Open' returning order_number;
-- parameters: ["c-1",1700000000000,"{}","hash",1]

-- orderRepository.markCancelled(orderId, at)
update "orders" set "status" = ?, "cancelled_at" = ? where "order_id" = ? and "status" <> ?;
-- parameters: ["Cancelled",1700000000000,1,"Cancelled"]
