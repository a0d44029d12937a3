-- PostgreSQL: the SQL of src/orders/idempotency.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- idempotencyRepository.find(ref)
select api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at from idempotency_keys where api_key_id = $1 and idempotency_key = $2;
-- parameters: ["key-1","idem-1"]

-- idempotencyRepository.insertRunning(ref, operation, requestHash, now)
insert into idempotency_keys (api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at) values ($1, $2, $3, $4, 'running', null, null, $5);
-- parameters: ["key-1","idem-1","ConfirmOrder","hash",1700000000000]

-- idempotencyRepository.replace(ref, seenCreatedAt, operation, requestHash, now)
update "idempotency_keys" set "operation" = $1, "request_hash" = $2, "state" = $3, "response_status" = $4, "response_body" = $5, "created_at" = $6 where "api_key_id" = $7 and "idempotency_key" = $8 and "created_at" = $9;
-- parameters: ["ConfirmOrder","hash","running",null,null,1700000000000,"key-1","idem-1",1699999999000]

-- idempotencyRepository.complete(ref, claimedAt, status, body)
update idempotency_keys set state = 'done', response_status = $1, response_body = $2 where api_key_id = $3 and idempotency_key = $4 and created_at = $5;
-- parameters: [200,"{}","key-1","idem-1",1700000000000]

-- idempotencyRepository.delete(ref, claimedAt)
delete from idempotency_keys where api_key_id = $1 and idempotency_key = $2 and created_at = $3;
-- parameters: ["key-1","idem-1",1700000000000]

-- idempotencyRepository.deleteOlderThan(cutoff)
delete from "idempotency_keys" where "created_at" < $1;
-- parameters: [1700000000000]
