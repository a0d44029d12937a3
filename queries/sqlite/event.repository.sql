-- SQLite: the SQL of src/events/event.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- eventRepository.insertMany(rows: 2)
insert into events (sequence, event_id, type, occurred_at, customer_id, order_id, data) values (?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?);
-- parameters: [1,"evt_1","order.created",1700000000000,null,1,"{}",2,"evt_2","order.created",1700000000000,null,1,"{}"]

-- eventRepository.list(after, take)
select * from "events" where "sequence" > ? order by "sequence" limit ?;
-- parameters: [0,1000]

-- eventRepository.list(after, types: 2, take)
select * from "events" where "sequence" > ? and "type" in (?, ?) order by "sequence" limit ?;
-- parameters: [10,"order.created","order.confirmed",1000]

-- eventRepository.ofCustomer(customerId)
select * from "events" where "customer_id" = ? order by "sequence";
-- parameters: ["c-1"]

-- eventRepository.ownerlessOfOrders(orderIds: 2)
select * from "events" where "order_id" in (?, ?) and "customer_id" is null order by "sequence";
-- parameters: [1,2]

-- eventRepository.replaceData(sequence, data)
update "events" set "data" = ? where "sequence" = ?;
-- parameters: ["{}",1]

-- eventRepository.bySequences(sequences: 2)
select * from "events" where "sequence" in (?, ?);
-- parameters: [1,2]

-- eventRepository.oldest(count)
select "sequence", "occurred_at" from "events" order by "sequence" limit ?;
-- parameters: [1000]

-- eventRepository.deleteThrough(sequence)
delete from "events" where "sequence" <= ?;
-- parameters: [10]

-- eventRepository.markPurged(sequence)
update "sync_clock" set "purged_event" = ? where "id" = ? and "purged_event" < ?;
-- parameters: [10,1,10]
