-- PostgreSQL: the SQL of src/events/event.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- eventRepository.insertMany(rows: 2)
insert into events (sequence, event_id, type, occurred_at, customer_id, order_id, data) values ($1, $2, $3, $4, $5, $6, $7), ($8, $9, $10, $11, $12, $13, $14);
-- parameters: [1,"evt_1","order.created",1700000000000,null,1,"{}",2,"evt_2","order.created",1700000000000,null,1,"{}"]

-- eventRepository.list(after, take)
select * from "events" where "sequence" > $1 order by "sequence" limit $2;
-- parameters: [0,1000]

-- eventRepository.list(after, types: 2, take)
select * from "events" where "sequence" > $1 and "type" in ($2, $3) order by "sequence" limit $4;
-- parameters: [10,"order.created","order.confirmed",1000]

-- eventRepository.ofCustomer(customerId)
select * from "events" where "customer_id" = $1 order by "sequence";
-- parameters: ["c-1"]

-- eventRepository.ownerlessOfOrders(orderIds: 2)
select * from "events" where "order_id" in ($1, $2) and "customer_id" is null order by "sequence";
-- parameters: [1,2]

-- eventRepository.replaceData(sequence, data)
update "events" set "data" = $1 where "sequence" = $2;
-- parameters: ["{}",1]

-- eventRepository.bySequences(sequences: 2)
select * from "events" where "sequence" in ($1, $2);
-- parameters: [1,2]

-- eventRepository.oldest(count)
select "sequence", "occurred_at" from "events" order by "sequence" limit $1;
-- parameters: [1000]

-- eventRepository.deleteThrough(sequence)
delete from "events" where "sequence" <= $1;
-- parameters: [10]

-- eventRepository.markPurged(sequence)
update "sync_clock" set "purged_event" = $1 where "id" = $2 and "purged_event" < $3;
-- parameters: [10,1,10]
