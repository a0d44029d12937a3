-- SQLite: the SQL of src/webhooks/webhook.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- webhookRepository.insertEndpoint(row)
insert into "webhook_endpoints" ("endpoint_id", "url", "event_types", "description", "disabled_at", "disabled_reason", "secret", "previous_secret", "previous_secret_until", "cursor", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- parameters: ["wh_1","https://erp.example.com/hook","[]","",null,null,"whsec_x",null,null,0,1700000000000,1700000000000]

-- webhookRepository.startCursorAtNewestEvent(endpointId)
update "webhook_endpoints" set "cursor" = (select last_event from sync_clock where id = 1) where "endpoint_id" = ?;
-- parameters: ["wh_1"]

-- webhookRepository.findEndpoint(endpointId)
select * from "webhook_endpoints" where "endpoint_id" = ?;
-- parameters: ["wh_1"]

-- webhookRepository.listEndpoints()
select * from "webhook_endpoints" order by "created_at", "endpoint_id";
-- parameters: []

-- webhookRepository.endpointsByIds(endpointIds: 2)
select * from "webhook_endpoints" where "endpoint_id" in (?, ?);
-- parameters: ["wh_1","wh_2"]

-- webhookRepository.updateEndpoint(endpointId, set)
update "webhook_endpoints" set "description" = ?, "updated_at" = ? where "endpoint_id" = ?;
-- parameters: ["ERP",1700000000000,"wh_1"]

-- webhookRepository.deleteEndpoint(endpointId)
delete from "webhook_attempts" where "endpoint_id" = ?;
-- parameters: ["wh_1"]
delete from "webhook_deliveries" where "endpoint_id" = ?;
-- parameters: ["wh_1"]
delete from "webhook_endpoints" where "endpoint_id" = ?;
-- parameters: ["wh_1"]

-- webhookRepository.anyEnabled()
select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null limit ?;
-- parameters: [1]

-- webhookRepository.anyBehind()
select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null and "cursor" < (select last_event from sync_clock where id = 1) limit ?;
-- parameters: [1]

-- webhookRepository.anyDue(now)
select "endpoint_id" from "webhook_deliveries" where "state" = ? and "next_attempt_at" <= ? and ("lease_until" is null or "lease_until" < ?) limit ?;
-- parameters: ["Pending",1700000000000,1700000000000,1]

-- webhookRepository.endpointsBehind()
select * from "webhook_endpoints" where "disabled_at" is null and "cursor" < (select last_event from sync_clock where id = 1);
-- parameters: []

-- webhookRepository.eventsAfter(cursor, limit)
select "sequence", "type" from "events" where "sequence" > ? order by "sequence" limit ?;
-- parameters: [10,1000]

-- webhookRepository.queue(endpointId, sequences: 2, now)
insert into "webhook_deliveries" ("endpoint_id", "event_sequence", "state", "attempts", "failures", "next_attempt_at", "lease_until", "lease_owner") values (?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?) on conflict ("endpoint_id", "event_sequence") do update set "state" = ?, "failures" = ?, "next_attempt_at" = ?, "lease_until" = ?, "lease_owner" = ?;
-- parameters: ["wh_1",11,"Pending",0,0,1700000000000,null,null,"wh_1",12,"Pending",0,0,1700000000000,null,null,"Pending",0,1700000000000,null,null]

-- webhookRepository.replayable(types: 1, after)
select "sequence" from "events" where "sequence" > ? and "type" in (?) order by "sequence";
-- parameters: [10,"order.created"]

-- webhookRepository.replayable(no types, eventIds: 2)
select "sequence" from "events" where "event_id" in (?, ?) order by "sequence";
-- parameters: ["evt_1","evt_2"]

-- webhookRepository.claim(owner, now, lease, limit)
select "d"."endpoint_id", "d"."event_sequence", "d"."attempts", "d"."failures" from "webhook_deliveries" as "d" where "d"."state" = ? and "d"."next_attempt_at" <= ? and ("d"."lease_until" is null or "d"."lease_until" < ?) and "d"."endpoint_id" in (select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null) order by "d"."next_attempt_at" limit ?;
-- parameters: ["Pending",1700000000000,1700000000000,32]

-- webhookRepository.claim(owner, now, lease, limit, skip: 1)
select "d"."endpoint_id", "d"."event_sequence", "d"."attempts", "d"."failures" from "webhook_deliveries" as "d" where "d"."state" = ? and "d"."next_attempt_at" <= ? and ("d"."lease_until" is null or "d"."lease_until" < ?) and "d"."endpoint_id" in (select "endpoint_id" from "webhook_endpoints" where "disabled_at" is null) and "d"."endpoint_id" not in (?) order by "d"."next_attempt_at" limit ?;
-- parameters: ["Pending",1700000000000,1700000000000,"wh_2",32]

-- webhookRepository.settle(job, owner, state)
update "webhook_deliveries" set "state" = ?, "attempts" = ?, "failures" = ?, "next_attempt_at" = ?, "lease_until" = ?, "lease_owner" = ? where "endpoint_id" = ? and "event_sequence" = ? and "lease_owner" = ?;
-- parameters: ["Delivered",1,0,1700000000000,null,null,"wh_1",7,"d-1"]

-- webhookRepository.logAttempts(rows: 2)
insert into "webhook_attempts" ("endpoint_id", "event_sequence", "event_id", "attempt", "status", "response_code", "duration_ms", "at", "next_attempt_at", "error") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?);
-- parameters: ["wh_1",7,"evt_1",1,"Delivered",200,12,1700000000000,null,null,"wh_1",8,"evt_2",1,"Failed",null,12,1700000000000,null,"connection refused"]

-- webhookRepository.logUnfedAttempt(row)
insert into "webhook_attempts" ("endpoint_id", "event_id", "attempt", "status", "response_code", "duration_ms", "at", "next_attempt_at", "error", "event_sequence") values (?, ?, ?, ?, ?, ?, ?, ?, ?, (select last_event from sync_clock where id = 1));
-- parameters: ["wh_1","evt_3",1,"Failed",null,3,1700000000000,null,"connection refused"]

-- webhookRepository.attempts(endpointId, take)
select * from "webhook_attempts" where "endpoint_id" = ? order by "attempt_id" desc limit ?;
-- parameters: ["wh_1",100]

-- webhookRepository.pending(endpointId, take)
select "d"."event_sequence", "ev"."event_id", "d"."attempts", "d"."next_attempt_at" from "webhook_deliveries" as "d" inner join "events" as "ev" on "ev"."sequence" = "d"."event_sequence" where "d"."endpoint_id" = ? and "d"."state" = ? order by "d"."next_attempt_at" desc limit ?;
-- parameters: ["wh_1","Pending",100]

-- webhookRepository.oldestUndelivered()
select min("ev"."occurred_at") as "oldest" from "webhook_deliveries" as "d" inner join "events" as "ev" on "ev"."sequence" = "d"."event_sequence" where "d"."state" = ?;
-- parameters: ["Pending"]

-- webhookRepository.purgeOfPurgedEvents()
delete from "webhook_attempts" where "event_sequence" <= (select purged_event from sync_clock where id = 1);
-- parameters: []
delete from "webhook_deliveries" where "event_sequence" <= (select purged_event from sync_clock where id = 1);
-- parameters: []
