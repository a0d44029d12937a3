-- PostgreSQL: the SQL of src/store/sync-clock.ts. Written by `npm run sql:snapshot`; do not edit.

-- nextStamp(now)
update sync_clock set last_stamp = case when last_stamp + 1 > $1 then last_stamp + 1 else $2 end, last_event = last_event + $3 where id = 1 returning last_stamp, last_event;
-- parameters: [1700000000000,1700000000000,0]

-- committedWatermark()
select last_stamp from sync_clock where id = 1;
-- parameters: []

-- nextStampAndEvents(count, now)
update sync_clock set last_stamp = case when last_stamp + 1 > $1 then last_stamp + 1 else $2 end, last_event = last_event + $3 where id = 1 returning last_stamp, last_event;
-- parameters: [1700000000000,1700000000000,3]

-- eventBounds()
select last_event, purged_event from sync_clock where id = 1;
-- parameters: []
