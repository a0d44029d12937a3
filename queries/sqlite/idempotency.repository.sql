-- SQLite: the SQL of src/orders/idempotency.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- idempotencyRepository.find(ref)
select api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at from idempotency_keys where api_key_id = ? and idempotency_key = ?;
-- parameters: ["key-1","idem-1"]

-- idempotencyRepository.insertRunning(ref, operation, requestHash, now)
insert into idempotency_keys (api_key_id, idempotency_key, operation, request_hash, state, response_status, response_body, created_at) values (?, ?, ?, ?, 'running', null, null, ?);
-- parameters: ["key-1","idem-1","ConfirmOrder","hash",1700000000000]

-- idempotencyRepository.replace(ref, seenCreatedAt, operation, requestHash, now)
update "idempotency_keys" set "operation" = ?, "request_hash" = ?, "state" = ?, "response_status" = ?, "response_body" = ?, "created_at" = ? where "api_key_id" = ? and "idempotency_key" = ? and "created_at" = ?;
-- parameters: ["ConfirmOrder","hash","running",null,null,1700000000000,"key-1","idem-1",1699999999000]

-- idempotencyRepository.complete(ref, claimedAt, status, body)
update idempotency_keys set state = 'done', response_status = ?, response_body = ? where api_key_id = ? and idempotency_key = ? and created_at = ?;
-- parameters: [200,"{}","key-1","idem-1",1700000000000]

-- idempotencyRepository.delete(ref, claimedAt)
delete from idempotency_keys where api_key_id = ? and idempotency_key = ? and created_at = ?;
-- parameters: ["key-1","idem-1",1700000000000]

-- idempotencyRepository.deleteOlderThan(cutoff)
delete from "idempotency_keys" where "created_at" < ?;
-- parameters: [1700000000000]
