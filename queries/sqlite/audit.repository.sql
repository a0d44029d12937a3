-- SQLite: the SQL of src/audit/audit.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- auditRepository.insert(entry, at)
insert into "audit_log" ("at", "key_id", "action", "resource_type", "resource_ids") values (?, ?, ?, ?, ?) returning "sequence";
-- parameters: [1700000000000,"key-1","bank.read","order","[\"1\",\"2\"]"]

-- auditRepository.list(after, take)
select * from "audit_log" where "sequence" > ? order by "sequence" limit ?;
-- parameters: [0,1000]

-- auditRepository.list(after, take, since)
select * from "audit_log" where "sequence" > ? and "at" >= ? order by "sequence" limit ?;
-- parameters: [10,1700000000000,1000]
