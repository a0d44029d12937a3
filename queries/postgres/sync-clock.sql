-- PostgreSQL: the SQL of src/store/sync-clock.ts. Written by `npm run sql:snapshot`; do not edit.

-- nextStamp(now)
update sync_clock set last_stamp = case when last_stamp + 1 > $1 then last_stamp + 1 else $2 end where id = 1 returning last_stamp;
-- parameters: [1700000000000,1700000000000]

-- committedWatermark()
select last_stamp from sync_clock where id = 1;
-- parameters: []

-- takeEventSequences(count)
update sync_clock set last_event = last_event + $1 where id = 1 returning last_event;
-- parameters: [3]

-- eventBounds()
select last_event, purged_event from sync_clock where id = 1;
-- parameters: []
