-- SQLite: the SQL of src/auth/key-repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- keyRepository.insert(row)
insert into "api_keys" ("id", "name", "key_hash", "permissions", "created_at", "revoked_at") values (?, ?, ?, ?, ?, ?);
-- parameters: ["key-1","ops","hash","all",1700000000000,null]

-- keyRepository.findByHash(keyHash)
select * from "api_keys" where "key_hash" = ?;
-- parameters: ["hash"]

-- keyRepository.list()
select * from "api_keys" order by "created_at", "id";
-- parameters: []

-- keyRepository.count()
select count(*) as "n" from "api_keys";
-- parameters: []

-- keyRepository.revoke(id, at)
update "api_keys" set "revoked_at" = ? where "id" = ? and "revoked_at" is null;
-- parameters: [1700000000000,"key-1"]
