-- SQLite: the SQL of src/customers/customer.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- customerRepository.touch(customerIds: 3, stamp)
update customers set modified_at = ? where customer_id in (?, ?, ?);
-- parameters: [1700000000000,"c-1","c-2","c-3"]

-- customerRepository.findById(customerId)
select * from "customers" where "customer_id" = ?;
-- parameters: ["c-1"]

-- customerRepository.findMany(customerIds: 2)
select customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at from customers where customer_id in (?, ?);
-- parameters: ["c-1","c-2"]

-- customerRepository.findForUpdate(customerId)
select * from "customers" where "customer_id" = ?;
-- parameters: ["c-1"]

-- customerRepository.blank(customerId, erasedAt)
update "customers" set "external_id" = ?, "salutation" = ?, "first_name" = ?, "last_name" = ?, "postal_code" = ?, "city" = ?, "country" = ?, "street" = ?, "street_number" = ?, "company" = ?, "company2" = ?, "addition_to_address" = ?, "quarter" = ?, "erased_at" = ? where "customer_id" = ?;
-- parameters: [null,null,null,null,null,null,null,null,null,null,null,null,null,1700000000000,"c-1"]
insert into "customer_words" ("customer_id", "words") values (?, ?) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1"]
insert into "customer_text" ("customer_text") values ('optimize');
-- parameters: []

-- customerRepository.existingIds(customerIds: 2)
select "customer_id" from "customers" where "customer_id" in (?, ?);
-- parameters: ["c-1","c-2"]

-- customerRepository.findByExternalId(externalId)
select * from "customers" where "external_id" = ?;
-- parameters: ["ext-1"]

-- customerRepository.findByIdentifiers(identifiers: 2, no lower bound)
/* rows as arrays */ select c.customer_id, c.external_id, c.salutation, c.first_name, c.last_name, c.postal_code, c.city, c.country, c.street, c.street_number, c.company, c.company2, c.addition_to_address, c.quarter, c.modified_at, w.last_stamp as sync_watermark from sync_clock w left join customers c on (c.customer_id in (?, ?) or c.external_id in (?, ?)) and c.modified_at + 0 <= w.last_stamp where w.id = 1 order by c.modified_at, c.customer_id;
-- parameters: ["c-1","ext-1","c-1","ext-1"]

-- customerRepository.findByIdentifiers(identifiers: 2, modifiedAfter)
/* rows as arrays */ select c.customer_id, c.external_id, c.salutation, c.first_name, c.last_name, c.postal_code, c.city, c.country, c.street, c.street_number, c.company, c.company2, c.addition_to_address, c.quarter, c.modified_at, w.last_stamp as sync_watermark from sync_clock w left join customers c on (c.customer_id in (?, ?) or c.external_id in (?, ?)) and c.modified_at + 0 <= w.last_stamp and c.modified_at + 0 > ? where w.id = 1 order by c.modified_at, c.customer_id;
-- parameters: ["c-1","ext-1","c-1","ext-1",1699999999000]

-- customerRepository.search({ modifiedAtMost }, no limit)
/* rows as arrays */ select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= ? order by "modified_at", "customer_id";
-- parameters: [1700000000000]

-- customerRepository.search({ modifiedAfter, modifiedAtMost }, limit)
/* rows as arrays */ select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= ? and "modified_at" > ? order by "modified_at", "customer_id" limit ?;
-- parameters: [1700000000000,1699999999000,100]

-- customerRepository.search({ modifiedAfter, modifiedAtMost, after (tighter), through }, limit, offset)
/* rows as arrays */ select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where (modified_at, customer_id) <= (?, ?) and (modified_at, customer_id) > (?, ?) order by "modified_at", "customer_id" limit ? offset ?;
-- parameters: [1700000000000,"c-9",1699999999500,"c-1",100,200]

-- customerRepository.search({ modifiedAtMost }, offset without limit)
/* rows as arrays */ select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= ? order by "modified_at", "customer_id" limit ? offset ?;
-- parameters: [1700000000000,9007199254740991,200]

-- customerRepository.search({ modifiedAtMost, match: text words 2 }, limit)
select max(rowid) as n from "customer_words";
-- parameters: []
select count(*) as n from (select rowid from "customer_text" where "customer_text" match ? limit ?);
-- parameters: ["\"mull\"* \"koln\"*",5000]
/* rows as arrays */ select "customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at" from "customers" where "modified_at" <= ? and 1 = 0 order by "modified_at", "customer_id" limit ?;
-- parameters: [1700000000000,1000]

-- customerRepository.positionsAt({ modifiedAfter, modifiedAtMost }, offset, count)
select "modified_at", "customer_id" from "customers" where "modified_at" <= ? and "modified_at" > ? order by "modified_at", "customer_id" limit ? offset ?;
-- parameters: [1700000000000,1699999999000,2,1000]

-- customerRepository.positionsAt({ modifiedAtMost, match: text words 1 }, offset, count)
select max(rowid) as n from "customer_words";
-- parameters: []
select count(*) as n from (select rowid from "customer_text" where "customer_text" match ? limit ?);
-- parameters: ["\"mull\"*",5000]
select "modified_at", "customer_id" from "customers" where "modified_at" <= ? and 1 = 0 order by "modified_at", "customer_id" limit ? offset ?;
-- parameters: [1700000000000,2,19]

-- customerRepository.writeData(customerId, data (all 13 columns), provisionalStamp; no such row yet)
update "customers" set "external_id" = ?, "salutation" = ?, "first_name" = ?, "last_name" = ?, "postal_code" = ?, "city" = ?, "country" = ?, "street" = ?, "street_number" = ?, "company" = ?, "company2" = ?, "addition_to_address" = ?, "quarter" = ? where "customer_id" = ?;
-- parameters: ["ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,"c-1"]
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("customer_id") do update set "external_id" = ?, "salutation" = ?, "first_name" = ?, "last_name" = ?, "postal_code" = ?, "city" = ?, "country" = ?, "street" = ?, "street_number" = ?, "company" = ?, "company2" = ?, "addition_to_address" = ?, "quarter" = ?;
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null]
insert into "customer_words" ("customer_id", "words") values (?, ?) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln"]

-- customerRepository.writeMany(rows: 2, provisionalStamp)
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("customer_id") do update set "external_id" = "excluded"."external_id", "salutation" = "excluded"."salutation", "first_name" = "excluded"."first_name", "last_name" = "excluded"."last_name", "postal_code" = "excluded"."postal_code", "city" = "excluded"."city", "country" = "excluded"."country", "street" = "excluded"."street", "street_number" = "excluded"."street_number", "company" = "excluded"."company", "company2" = "excluded"."company2", "addition_to_address" = "excluded"."addition_to_address", "quarter" = "excluded"."quarter";
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"c-2","ext-2","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0]
insert into "customer_words" ("customer_id", "words") values (?, ?), (?, ?) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln","c-2","c 2 ext erika mustermann 50667 koln"]

-- customerRepository.insertNew(rows: 2)
insert into "customers" ("customer_id", "external_id", "salutation", "first_name", "last_name", "postal_code", "city", "country", "street", "street_number", "company", "company2", "addition_to_address", "quarter", "modified_at", "created_at", "custom_fields_version") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict do nothing returning "customer_id";
-- parameters: ["c-1","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0,"c-2","ext-2","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,null,1700000000000,1700000000000,0]

-- customerRepository.updateAddress(customerId, address (every column))
update customers set salutation = ?, first_name = ?, last_name = ?, postal_code = ?, city = ?, country = ?, street = ?, street_number = ?, company = ?, company2 = ?, addition_to_address = ? where customer_id = ? returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,"c-1"]

-- customerRepository.updateAddress(customerId, address { city, country })
update customers set city = ?, country = ? where customer_id = ? returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["Köln","DE","c-1"]

-- customerRepository.updateAddress(customerId, address {})
update customers set customer_id = customer_id where customer_id = ? returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-1"]

-- customerRepository.upsertByExternalId(newId, externalId, address (every column), now)
insert into customers (customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, modified_at, created_at, custom_fields_version) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0) on conflict (external_id) do update set salutation = excluded.salutation, first_name = excluded.first_name, last_name = excluded.last_name, postal_code = excluded.postal_code, city = excluded.city, country = excluded.country, street = excluded.street, street_number = excluded.street_number, company = excluded.company, company2 = excluded.company2, addition_to_address = excluded.addition_to_address returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-new","ext-1","Frau","Erika","Mustermann","50667","Köln","DE","Domkloster","4",null,null,null,1700000000000,1700000000000]

-- customerRepository.upsertByExternalId(newId, externalId null, address {}, now)
insert into customers (customer_id, external_id, modified_at, created_at, custom_fields_version) values (?, ?, ?, ?, 0) on conflict (external_id) do update set external_id = excluded.external_id returning customer_id, external_id, salutation, first_name, last_name, postal_code, city, country, street, street_number, company, company2, addition_to_address, quarter, modified_at, created_at, custom_fields_version, erased_at;
-- parameters: ["c-new",null,1700000000000,1700000000000]

-- customerRepository.holdersOfExternalIds(externalIds: 2)
select "customer_id", "external_id" from "customers" where "external_id" in (?, ?);
-- parameters: ["ext-1","ext-2"]
