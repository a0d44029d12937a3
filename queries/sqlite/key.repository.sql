-- SQLite: the SQL of src/auth/key.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- keyRepository.insert(row)
insert into "api_keys" ("id", "name", "key_hash", "permissions", "created_at", "revoked_at", "last_used_at") values (?, ?, ?, ?, ?, ?, ?);
-- parameters: ["key-1","ops","hash","all",1700000000000,null,null]

-- keyRepository.findByHash(keyHash)
select * from "api_keys" where "key_hash" = ?;
-- parameters: ["hash"]

-- keyRepository.findById(id)
select * from "api_keys" where "id" = ?;
-- parameters: ["key-1"]

-- keyRepository.list()
select * from "api_keys" order by "created_at", "id";
-- parameters: []

-- keyRepository.countOtherAdmins(exceptId)
select "id", "permissions" from "api_keys" where "revoked_at" is null and "id" != ?;
-- parameters: ["key-1"]

-- keyRepository.markUsed(id, at)
update "api_keys" set "last_used_at" = ? where "id" = ? and ("last_used_at" is null or "last_used_at" < ?);
-- parameters: [1700000000000,"key-1",1700000000000]

-- keyRepository.count()
select count(*) as "n" from "api_keys";
-- parameters: []

-- keyRepository.revoke(id, at)
update "api_keys" set "revoked_at" = ? where "id" = ? and "revoked_at" is null;
-- parameters: [1700000000000,"key-1"]
