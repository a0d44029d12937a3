-- SQLite: the SQL of src/customers/customer.words.ts. Written by `npm run sql:snapshot`; do not edit.

-- customerWordsRepository.writeOne(row)
insert into customer_words (customer_id, words) values (?, ?) on conflict (customer_id) do update set words = excluded.words where customer_words.words <> excluded.words;
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln"]

-- customerWordsRepository.write(rows: 2)
insert into "customer_words" ("customer_id", "words") values (?, ?), (?, ?) on conflict ("customer_id") do update set "words" = "excluded"."words" where "customer_words"."words" <> "excluded"."words";
-- parameters: ["c-1","c 1 ext erika mustermann 50667 koln","c-2","c 2 ext 1 erika mustermann 50667 koln"]
