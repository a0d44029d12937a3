-- SQLite: the SQL of src/orders/order.words.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderWordsRepository.writeOne(order)
insert into order_words (order_id, words, states) values (?, ?, ?) on conflict (order_id) do update set words = excluded.words, states = excluded.states where order_words.words <> excluded.words or order_words.states <> excluded.states;
-- parameters: [1,"o 1 c","~sopen ~punpaid ~funfulfilled"]

-- orderWordsRepository.setStates(orderId)
update order_words set states = (select '~s' || lower(status) || ' ~p' || lower(payment_status) || ' ~f' || lower(fulfillment_status) from orders where orders.order_id = ?) where order_id = ?;
-- parameters: [1,1]

-- orderWordsRepository.write(orders: 2)
insert into "order_words" ("order_id", "words", "states") values (?, ?, ?), (?, ?, ?) on conflict ("order_id") do update set "words" = "excluded"."words", "states" = "excluded"."states" where ("order_words"."words" <> "excluded"."words" or "order_words"."states" <> "excluded"."states");
-- parameters: [1,"o 1","~sopen ~punpaid ~funfulfilled",2,"o 2","~sopen ~punpaid ~funfulfilled"]

-- orderWordsRepository.refresh(orderIds: 2)
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in (?, ?);
-- parameters: [1,2]
