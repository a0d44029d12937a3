-- PostgreSQL: the SQL of src/audit/audit.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- auditRepository.insert(entry, at)
insert into "audit_log" ("at", "key_id", "action", "resource_type", "resource_ids") values ($1, $2, $3, $4, $5) returning "sequence";
-- parameters: [1700000000000,"key-1","bank.read","order","[\"1\",\"2\"]"]

-- auditRepository.list(after, take)
select * from "audit_log" where "sequence" > $1 order by "sequence" limit $2;
-- parameters: [0,1000]

-- auditRepository.list(after, take, since)
select * from "audit_log" where "sequence" > $1 and "at" >= $2 order by "sequence" limit $3;
-- parameters: [10,1700000000000,1000]
