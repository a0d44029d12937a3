-- PostgreSQL: the SQL of src/webhooks/webhook.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- webhookRepository.insertEndpoint(row)
insert into "webhook_endpoints" ("endpoint_id", "url", "event_types", "description", "disabled_at", "disabled_reason", "secret", "previous_secret", "previous_secret_until", "cursor", "created_at", "updated_at") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12);
-- parameters: ["wh_1","https://erp.example.com/hook","[]","",null,null,"whsec_x",null,null,0,1700000000000,1700000000000]

-- webhookRepository.startCursorAtNewestEvent(endpointId)
update "webhook_endpoints" set "cursor" = (select last_event from sync_clock where id = 1) where "endpoint_id" = $1;
-- parameters: ["wh_1"]

-- webhookRepository.findEndpoint(endpointId)
select * from "webhook_endpoints" where "endpoint_id" = $1;
-- parameters: ["wh_1"]

-- webhookRepository.listEndpoints()
select * from "webhook_endpoints" order by "created_at", "endpoint_id";
-- parameters: []

-- webhookRepository.endpointsByIds(endpointIds: 2)
select * from "webhook_endpoints" where "endpoint_id" in ($1, $2);
-- parameters: ["wh_1","wh_2"]

-- webhookRepository.updateEndpoint(endpointId, set)
update "webhook_endpoints" set "description" = $1, "updated_at" = $2 where "endpoint_id" = $3;
-- parameters: ["ERP",1700000000000,"wh_1"]

-- webhookRepository.deleteEndpoint(endpointId)
delete from "webhook_attempts" where "endpoint_id" = $1;
-- parameters: ["wh_1"]
delete from "webhook_deliveries" where "endpoint_id" = $1;
-- parameters: ["wh_1"]
delete from "webhook_endpoints" where "endpoint_id" = $1;
-- parameters: ["wh_1"]

-- webhookRepository.anyEnabled()
select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null limit $1;
-- parameters: [1]

-- webhookRepository.anyBehind()
select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null and "cursor" < (select last_event from sync_clock where id = 1) limit $1;
-- parameters: [1]

-- webhookRepository.anyDue(now)
select "endpoint_id" from "webhook_deliveries" where "state" = $1 and "next_attempt_at" <= $2 and ("lease_until" is null or "lease_until" < $3) limit $4;
-- parameters: ["Pending",1700000000000,1700000000000,1]

-- webhookRepository.endpointsBehind()
select * from "webhook_endpoints" where "disabled_at" is null and "cursor" < (select last_event from sync_clock where id = 1) for update skip locked;
-- parameters: []

-- webhookRepository.eventsAfter(cursor, limit)
select "sequence", "type" from "events" where "sequence" > $1 order by "sequence" limit $2;
-- parameters: [10,1000]

-- webhookRepository.queue(endpointId, sequences: 2, now)
insert into "webhook_deliveries" ("endpoint_id", "event_sequence", "state", "attempts", "failures", "next_attempt_at", "lease_until", "lease_owner") values ($1, $2, $3, $4, $5, $6, $7, $8), ($9, $10, $11, $12, $13, $14, $15, $16) on conflict ("endpoint_id", "event_sequence") do update set "state" = $17, "failures" = $18, "next_attempt_at" = $19, "lease_until" = $20, "lease_owner" = $21;
-- parameters: ["wh_1",11,"Pending",0,0,1700000000000,null,null,"wh_1",12,"Pending",0,0,1700000000000,null,null,"Pending",0,1700000000000,null,null]

-- webhookRepository.replayable(types: 1, after)
select "sequence" from "events" where "sequence" > $1 and "type" in ($2) order by "sequence";
-- parameters: [10,"order.created"]

-- webhookRepository.replayable(no types, eventIds: 2)
select "sequence" from "events" where "event_id" in ($1, $2) order by "sequence";
-- parameters: ["evt_1","evt_2"]

-- webhookRepository.claim(owner, now, lease, limit)
select "d"."endpoint_id", "d"."event_sequence", "d"."attempts", "d"."failures" from "webhook_deliveries" as "d" where "d"."state" = $1 and "d"."next_attempt_at" <= $2 and ("d"."lease_until" is null or "d"."lease_until" < $3) and "d"."endpoint_id" in (select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null) order by "d"."next_attempt_at" limit $4 for update skip locked;
-- parameters: ["Pending",1700000000000,1700000000000,32]

-- webhookRepository.claim(owner, now, lease, limit, skip: 1)
select "d"."endpoint_id", "d"."event_sequence", "d"."attempts", "d"."failures" from "webhook_deliveries" as "d" where "d"."state" = $1 and "d"."next_attempt_at" <= $2 and ("d"."lease_until" is null or "d"."lease_until" < $3) and "d"."endpoint_id" in (select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null) and "d"."endpoint_id" not in ($4) order by "d"."next_attempt_at" limit $5 for update skip locked;
-- parameters: ["Pending",1700000000000,1700000000000,"wh_2",32]

-- webhookRepository.settle(job, owner, state)
update "webhook_deliveries" set "state" = $1, "attempts" = $2, "failures" = $3, "next_attempt_at" = $4, "lease_until" = $5, "lease_owner" = $6 where "endpoint_id" = $7 and "event_sequence" = $8 and "lease_owner" = $9;
-- parameters: ["Delivered",1,0,1700000000000,null,null,"wh_1",7,"d-1"]

-- webhookRepository.logAttempts(rows: 2)
insert into "webhook_attempts" ("endpoint_id", "event_sequence", "event_id", "attempt", "status", "response_code", "duration_ms", "at", "next_attempt_at", "error") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10), ($11, $12, $13, $14, $15, $16, $17, $18, $19, $20);
-- parameters: ["wh_1",7,"evt_1",1,"Delivered",200,12,1700000000000,null,null,"wh_1",8,"evt_2",1,"Failed",null,12,1700000000000,null,"connection refused"]

-- webhookRepository.logUnfedAttempt(row)
insert into "webhook_attempts" ("endpoint_id", "event_id", "attempt", "status", "response_code", "duration_ms", "at", "next_attempt_at", "error", "event_sequence") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, (select last_event from sync_clock where id = 1));
-- parameters: ["wh_1","evt_3",1,"Failed",null,3,1700000000000,null,"connection refused"]

-- webhookRepository.attempts(endpointId, take)
select * from "webhook_attempts" where "endpoint_id" = $1 order by "attempt_id" desc limit $2;
-- parameters: ["wh_1",100]

-- webhookRepository.pending(endpointId, take)
select "d"."event_sequence", "ev"."event_id", "d"."attempts", "d"."next_attempt_at" from "webhook_deliveries" as "d" inner join "events" as "ev" on "ev"."sequence" = "d"."event_sequence" where "d"."endpoint_id" = $1 and "d"."state" = $2 order by "d"."next_attempt_at" desc limit $3;
-- parameters: ["wh_1","Pending",100]

-- webhookRepository.oldestUndelivered()
select min("ev"."occurred_at") as "oldest" from "webhook_deliveries" as "d" inner join "events" as "ev" on "ev"."sequence" = "d"."event_sequence" where "d"."state" = $1;
-- parameters: ["Pending"]

-- webhookRepository.purgeOfPurgedEvents()
delete from "webhook_attempts" where "event_sequence" <= (select purged_event from sync_clock where id = 1);
-- parameters: []
delete from "webhook_deliveries" where "event_sequence" <= (select purged_event from sync_clock where id = 1);
-- parameters: []
