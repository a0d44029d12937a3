-- SQLite: the SQL of src/customfields/customfield.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- customFieldRepository.readValues(customerId)
select c.custom_fields_version as version, c.created_at, (select defs_version from custom_field_meta where id = 1) as defs_version, (select json_group_array(json_array(v.number, json(v.value))) from custom_field_values v where v.customer_id = c.customer_id) as vals from customers c where c.customer_id = ?;
-- parameters: ["c-1"]

-- customFieldRepository.readFields(customerId, every field)
select c.custom_fields_version as version, c.created_at, d.number, d.label, d.field_type, d.is_read_only, d.allowed_values, d.sort, v.value from customers c left join custom_field_defs d on true left join custom_field_values v on v.customer_id = c.customer_id and v.number = d.number where c.customer_id = ? order by d.sort, d.number;
-- parameters: ["c-1"]

-- customFieldRepository.readFields(customerId, numbers: 2)
select c.custom_fields_version as version, c.created_at, d.number, d.label, d.field_type, d.is_read_only, d.allowed_values, d.sort, v.value from customers c left join custom_field_defs d on d.number in (?, ?) left join custom_field_values v on v.customer_id = c.customer_id and v.number = d.number where c.customer_id = ? order by d.sort, d.number;
-- parameters: [1,2,"c-1"]

-- customFieldRepository.readFields(customerId, numbers: 0)
select c.custom_fields_version as version, c.created_at, d.number, d.label, d.field_type, d.is_read_only, d.allowed_values, d.sort, v.value from customers c left join custom_field_defs d on false left join custom_field_values v on v.customer_id = c.customer_id and v.number = d.number where c.customer_id = ? order by d.sort, d.number;
-- parameters: ["c-1"]

-- customFieldRepository.listDefinitions()
select * from "custom_field_defs" order by "sort", "number";
-- parameters: []

-- customFieldRepository.definitionsWithVersion()
select "m"."defs_version", "d"."number", "d"."label", "d"."field_type", "d"."is_read_only", "d"."allowed_values", "d"."sort", "d"."updated_at" from "custom_field_meta" as "m" left join "custom_field_defs" as "d" on true where "m"."id" = ? order by "d"."sort", "d"."number";
-- parameters: [1]

-- customFieldRepository.bumpDefinitionsVersion()
update "custom_field_meta" set "defs_version" = "defs_version" + ? where "id" = ?;
-- parameters: [1,1]

-- customFieldRepository.definitionsForWrite(numbers: 2)
select number, label, field_type, is_read_only, allowed_values, sort, updated_at from custom_field_defs where number in (?, ?);
-- parameters: [1,2]

-- customFieldRepository.allDefinitionsForWrite()
select * from "custom_field_defs";
-- parameters: []

-- customFieldRepository.findDefinitionForUpdate(number)
select * from "custom_field_defs" where "number" = ?;
-- parameters: [1]

-- customFieldRepository.saveDefinition(row)
insert into "custom_field_defs" ("number", "label", "field_type", "is_read_only", "allowed_values", "sort", "updated_at") values (?, ?, ?, ?, ?, ?, ?) on conflict ("number") do update set "label" = ?, "field_type" = ?, "is_read_only" = ?, "allowed_values" = ?, "sort" = ?, "updated_at" = ?;
-- parameters: [1,"Tier","Select",0,"[\"A\",\"B\"]",10,1700000000000,"Tier","Select",0,"[\"A\",\"B\"]",10,1700000000000]

-- customFieldRepository.deleteDefinition(number)
delete from "custom_field_defs" where "number" = ?;
-- parameters: [1]

-- customFieldRepository.hasValues(number)
select "number" from "custom_field_values" where "number" = ? limit ?;
-- parameters: [1,1]

-- customFieldRepository.distinctValues(number)
select distinct "value" from "custom_field_values" where "number" = ?;
-- parameters: [1]

-- customFieldRepository.bumpCustomersWithValues(number)
update "customers" set "custom_fields_version" = "custom_fields_version" + ? where "customer_id" in (select "customer_id" from "custom_field_values" where "number" = ?);
-- parameters: [1,1]

-- customFieldRepository.stampCustomersWithValues(number, stamp)
update "customers" set "modified_at" = ? where "customer_id" in (select "customer_id" from "custom_field_values" where "number" = ?);
-- parameters: [1700000000000,1]

-- customFieldRepository.deleteValuesOfField(number)
delete from "custom_field_values" where "number" = ?;
-- parameters: [1]

-- customFieldRepository.bumpVersion(customerId)
update customers set custom_fields_version = custom_fields_version + 1 where customer_id = ? returning custom_fields_version, created_at;
-- parameters: ["c-1"]

-- customFieldRepository.bumpVersions(customerIds: 2)
update "customers" set "custom_fields_version" = "custom_fields_version" + ? where "customer_id" in (?, ?);
-- parameters: [1,"c-1","c-2"]

-- customFieldRepository.upsertValues(customerId, values: 2, now)
insert into custom_field_values (customer_id, number, value, updated_at) values (?, ?, ?, ?), (?, ?, ?, ?) on conflict (customer_id, number) do update set value = excluded.value, updated_at = excluded.updated_at;
-- parameters: ["c-1",1,"\"A\"",1700000000000,"c-1",2,"3",1700000000000]

-- customFieldRepository.deleteValues(customerId, numbers: 2)
delete from "custom_field_values" where "customer_id" = ? and "number" in (?, ?);
-- parameters: ["c-1",1,2]

-- customFieldRepository.deleteAllValues(customerId)
delete from "custom_field_values" where "customer_id" = ?;
-- parameters: ["c-1"]
