-- PostgreSQL: the SQL of src/orders/order.words.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderWordsRepository.writeOne(order)
insert into order_words (order_id, words) values ($1, $2) on conflict (order_id) do update set words = excluded.words where order_words.words <> excluded.words;
-- parameters: [1,"o 1 c ~sopen ~punpaid ~funfulfilled"]

-- orderWordsRepository.write(orders: 2)
insert into "order_words" ("order_id", "words") values ($1, $2), ($3, $4) on conflict ("order_id") do update set "words" = "excluded"."words" where "order_words"."words" <> "excluded"."words";
-- parameters: [1,"o 1 ~sopen ~punpaid ~funfulfilled",2,"o 2 ~sopen ~punpaid ~funfulfilled"]

-- orderWordsRepository.refresh(orderIds: 2)
select "order_id", "order_number", "customer_id", "confirmation", "status", "payment_status", "fulfillment_status" from "orders" where "order_id" in ($1, $2);
-- parameters: [1,2]
