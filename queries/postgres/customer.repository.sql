-- PostgreSQL: the SQL of src/customers/customer.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- customerRepository.touch(customerIds: 3, stamp)
update customers set modified_at = $1 where customer_id in ($2, $3, $4);
-- parameters: [1700000000000,"c-1","c-2","c-3"]

-- customerRepository.findById(customerId)
select * from "customers" where "customer_id" = $1;
-- parameters: ["c-1"]

-- customerRepository.findMany(customerIds: 2)
select customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at from customers where customer_id in ($1, $2);
-- parameters: ["c-1","c-2"]

-- customerRepository.findForUpdate(customerId)
select * from "customers" where "customer_id" = $1 for update;
-- parameters: ["c-1"]

-- customerRepository.blank(customerId, erasedAt)
update "customers" set "external_id" = $1, "salutation" = $2, "first_name" = $3, "last_name" = $4, "postal_code" = $5, "city" = $6, "country" = $7, "street" = $8, "street_number" = $9, "company" = $10, "company2" = $11, "addition_to_address" = $12, "quarter" = $13, "erased_at" = $14 where "customer_id" = $15;
-- parameters: [null,null,null,null,null,null,null,null,null,null,null,null,null,1700000000000,"c-1"]
insert into "customer_words" ("customer_id", "words") values ($1, $2) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1"]

-- customerRepository.existingIds(customerIds: 2)
select "customer_id" from "customers" where "customer_id" in ($1, $2);
-- parameters: ["c-1","c-2"]

-- customerRepository.findByExternalId(externalId)
select * from "customers" where "external_id" = $1;
-- parameters: ["ext-1"]

-- customerRepository.findByIdentifiers(identifiers: 2, no lower bound)
select c.customer_id, c.external_id, c.salutation, c.first_name, c.last_name, c.postal_code, c.city, c.country, c.street, c.street_number, c.company, c.company2, c.addition_to_address, c.quarter, c.modified_at, w.last_stamp as sync_watermark from sync_clock w left join customers c on (c.customer_id in ($1, $2) or c.external_id in ($3, $4)) and c.modified_at + 0 <= w.last_stamp where w.id = 1 order by c.modified_at, c.customer_id;
-- parameters: ["c-1","ext-1","c-1","ext-1"]

-- customerRepository.findByIdentifiers(identifiers: 2, modifiedAfter)
select c.customer_id, c.external_id, c.salutation, c.first_name, c.last_name, c.postal_code, c.city, c.country, c.street, c.street_number, c.company, c.company2, c.addition_to_address, c.quarter, c.modified_at, w.last_stamp as sync_watermark from sync_clock w left join customers c on (c.customer_id in ($1, $2) or c.external_id in ($3, $4)) and c.modified_at + 0 <= w.last_stamp and c.modified_at + 0 > $5 where w.id = 1 order by c.modified_at, c.customer_id;
-- parameters: ["c-1","ext-1","c-1","ext-1",1699999999000]

-- customerRepository.search({ modifiedAtMost }, no limit)
select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= $1 order by "modified_at", "customer_id";
-- parameters: [1700000000000]

-- customerRepository.search({ modifiedAfter, modifiedAtMost }, limit)
select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= $1 and "modified_at" > $2 order by "modified_at", "customer_id" limit $3;
-- parameters: [1700000000000,1699999999000,100]

-- customerRepository.search({ modifiedAfter, modifiedAtMost, after (tighter), through }, limit, offset)
select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where (modified_at, customer_id) <= ($1, $2) and (modified_at, customer_id) > ($3, $4) order by "modified_at", "customer_id" limit $5 offset $6;
-- parameters: [1700000000000,"c-9",1699999999500,"c-1",100,200]

-- customerRepository.search({ modifiedAtMost }, offset without limit)
select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= $1 order by "modified_at", "customer_id" limit $2 offset $3;
-- parameters: [1700000000000,9007199254740991,200]

-- customerRepository.search({ modifiedAtMost, match: text words 2 }, limit)
select (select reltuples from pg_class where oid = $1::regclass) as n, array[count(*) filter (where (' ' || w.words) like $2), count(*) filter (where (' ' || w.words) like $3), count(*) filter (where (' ' || w.words) like $4 and (' ' || w.words) like $5), count(*)] as h from (select words from "customer_words" order by "customer_id" limit $6) w;
-- parameters: ["customer_words","% mull%","% koln%","% mull%","% koln%",1000]
select w."customer_id" as k from "customer_words" w where array_to_tsvector(string_to_array(w.words, ' ')) @@ $1::tsquery limit $2;
-- parameters: ["'mull':* & 'koln':*",5000]
select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= $1 and 1 = 0 order by "modified_at", "customer_id" limit $2;
-- parameters: [1700000000000,1000]

-- customerRepository.positionsAt({ modifiedAfter, modifiedAtMost }, offset, count)
select "modified_at", "customer_id" from "customers" where "modified_at" <= $1 and "modified_at" > $2 order by "modified_at", "customer_id" limit $3 offset $4;
-- parameters: [1700000000000,1699999999000,2,1000]

-- customerRepository.positionsAt({ modifiedAtMost, match: text words 1 }, offset, count)
select (select reltuples from pg_class where oid = $1::regclass) as n, array[count(*) filter (where (' ' || w.words) like $2), count(*) filter (where (' ' || w.words) like $3), count(*)] as h from (select words from "customer_words" order by "customer_id" limit $4) w;
-- parameters: ["customer_words","% mull%","% mull%",1000]
select w."customer_id" as k from "customer_words" w where array_to_tsvector(string_to_array(w.words, ' ')) @@ $1::tsquery limit $2;
-- parameters: ["'mull':*",5000]
select "modified_at", "customer_id" from "customers" where "modified_at" <= $1 and 1 = 0 order by "modified_at", "customer_id" limit $2 offset $3;
-- parameters: [1700000000000,2,19]

-- customerRepository.writeData(customerId, data (all 13 columns), provisionalStamp; no such row yet)
update "customers" set "external_id" = $1, "salutation" = $2, "first_name" = $3, "last_name" = $4, "postal_code" = $5, "city" = $6, "country" = $7, "street" = $8, "street_number" = $9, "company" = $10, "company2" = $11, "addition_to_address" = $12, "quarter" = $13 where "customer_id" = $14;
-- parameters: ["ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,"c-1"]
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) on conflict ("customer_id") do update set "external_id" = $18, "salutation" = $19, "first_name" = $20, "last_name" = $21, "postal_code" = $22, "city" = $23, "country" = $24, "street" = $25, "street_number" = $26, "company" = $27, "company2" = $28, "addition_to_address" = $29, "quarter" = $30;
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null]
insert into "customer_words" ("customer_id", "words") values ($1, $2) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln"]

-- customerRepository.writeMany(rows: 2, provisionalStamp)
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17), ($18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34) on conflict ("customer_id") do update set "external_id" = "excluded"."external_id", "salutation" = "excluded"."salutation", "first_name" = "excluded"."first_name", "last_name" = "excluded"."last_name", "postal_code" = "excluded"."postal_code", "city" = "excluded"."city", "country" = "excluded"."country", "street" = "excluded"."street", "street_number" = "excluded"."street_number", "company" = "excluded"."company", "company2" = "excluded"."company2", "addition_to_address" = "excluded"."addition_to_address", "quarter" = "excluded"."quarter";
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"c-2","ext-2","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0]
insert into "customer_words" ("customer_id", "words") values ($1, $2), ($3, $4) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln","c-2","c 2 ext erika mustermann 50667 koln"]

-- customerRepository.insertNew(rows: 2)
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17), ($18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34) on conflict do nothing returning "customer_id";
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"c-2","ext-2","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0]

-- customerRepository.updateAddress(customerId, address (every column))
update customers set salutation = $1, first_name = $2, last_name = $3, postal_code = $4, city = $5, country = $6, street = $7, street_number = $8, company = $9, company2 = $10, addition_to_address = $11 where customer_id = $12 returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,"c-1"]

-- customerRepository.updateAddress(customerId, address { city, country })
update customers set city = $1, country = $2 where customer_id = $3 returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["Köln","DE","c-1"]

-- customerRepository.updateAddress(customerId, address {})
update customers set customer_id = customer_id where customer_id = $1 returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-1"]

-- customerRepository.upsertByExternalId(newId, externalId, address (every column), now)
insert into customers (customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, modified_at, created_at, custom_fields_version) values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, 0) on conflict (external_id) do update set salutation = excluded.salutation, first_name = excluded.first_name, last_name = excluded.last_name, postal_code = excluded.postal_code, city = excluded.city, country = excluded.country, street = excluded.street, street_number = excluded.street_number, company = excluded.company, company2 = excluded.company2, addition_to_address = excluded.addition_to_address returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-new","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,1700000000000,1700000000000]

-- customerRepository.upsertByExternalId(newId, externalId null, address {}, now)
insert into customers (customer_id, external_id, modified_at, created_at, custom_fields_version) values ($1, $2, $3, $4, 0) on conflict (external_id) do update set external_id = excluded.external_id returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-new",null,1700000000000,1700000000000]

-- customerRepository.holdersOfExternalIds(externalIds: 2)
select "customer_id", "external_id" from "customers" where "external_id" in ($1, $2);
-- parameters: ["ext-1","ext-2"]
