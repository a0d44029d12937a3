import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { test } from 'node:test';
import { composeIBAN } from 'ibantools';
import { sql } from 'kysely';
import { createKey } from '../../src/auth/key.service.js';
import { foldedWords } from '../../src/store/text-words.js';
import { define, errorOf, freshNumber, setValue } from '../customfields/cf-helpers.js';
import { bearer, describeEachBackend, json, type TestApp } from '../helpers/test-app.js';
import { confirm, confirmation, createOrder, unique } from '../orders/order-fixtures.js';

/** A valid IBAN and BIC of their own for each person, so that no other customer of the suite holds them. */
const bankOf = (n: number) => ({
  iban: composeIBAN({ countryCode: 'DE', bban: `37040044${String(n).padStart(10, '0')}` })!,
  bic: `${String.fromCharCode(65 + (n % 26), 65 + ((n >> 5) % 26), 65 + ((n >> 10) % 26), 65 + ((n >> 15) % 26))}DEFF`,
});
let people = 0;

/** A customer's personal data, unique to one test, and the confirmation that carries it. */
function person() {
  const u = unique();
  const { iban: IBAN, bic: BIC } = bankOf((Date.now() % 1_000_000_000) + ++people * 7919);
  const values = {
    first: `Zelda${u}`,
    last: `Quux${u}`,
    street: `Geheimweg${u}`,
    city: `Ortschaft${u}`,
    postal: `PLZ${u}`.slice(0, 10),
    email: `p${u}@example.org`,
    mandate: `MAND-${u}`,
    holder: `Holder ${u}`,
    note: `Note ${u}`,
    payName: `PayName${u}`,
    ref: `Ref${u}`,
    fan: `FAN${u}`,
    ext: `ext-${u}`,
    deliveryFirst: `Dora${u}`,
    deliveryStreet: `Lieferweg${u}`,
    company: `Firma${u}`,
    quarter: `Viertel${u}`,
    cf: `cfsecret${u}`,
    orderNote: `OrderNote${u}`,
    recordName: `RecName${u}`,
    recordRef: `RecRef${u}`,
    refundRef: `RefundRef${u}`,
    // The customer's name and city before a change: the search index's older entries hold them.
    formerFirst: `Yvonne${u}`,
    formerLast: `Xaver${u}`,
    formerCity: `Altstadt${u}`,
  };
  const body = confirmation({
    CustomerFirstName: values.first,
    CustomerLastName: values.last,
    CustomerStreet: values.street,
    CustomerCity: values.city,
    CustomerPostalCode: values.postal,
    CustomerCompany: values.company,
    CustomerEMail: values.email,
    CustomerIban: IBAN,
    CustomerBic: BIC,
    CustomerSepaMandateReference: values.mandate,
    AccountHolderName: values.holder,
    Note: values.note,
    ExternalCustomerId: values.ext,
    DeliveryAddressFirstName: values.deliveryFirst,
    DeliveryAddressStreet: values.deliveryStreet,
    Payment: {
      Amount: 42.5,
      Name: values.payName,
      Date: '2024-03-01T10:00:00Z',
      ReferenceNumber: values.ref,
      FinancialAccountNumber: values.fan,
      Type: 'PayPal',
    },
  });
  const secrets = [...Object.values(values), IBAN, BIC];
  // The text search's index holds the values folded (lower case, split into words): those words of
  // them that hold the person's unique part are secrets too.
  const folded = foldedWords(secrets).filter((w) => w.includes(u.toLowerCase()));
  assert.ok(folded.length >= 10);
  return { values, body, iban: IBAN, secrets: [...secrets, ...folded] };
}

/**
 * Every text the store holds, as one string: the raw files of SQLite (database and log: the text
 * index's FTS5 tables included), every row of every table of PostgreSQL (the words tables included).
 */
async function storeText(t: TestApp): Promise<string> {
  if (t.backend === 'sqlite') {
    const file = new URL(t.config.databaseUrl.replace(/^sqlite:/, 'file://')).pathname;
    return ['', '-wal', '-journal'].map((s) => (existsSync(file + s) ? readFileSync(file + s).toString('latin1') : '')).join('\n');
  }
  const tables = await sql<{ tablename: string }>`select tablename from pg_tables where schemaname = 'public'`.execute(t.store.db);
  let text = '';
  for (const { tablename } of tables.rows) {
    const rows = await sql<{ r: string }>`select t::text as r from ${sql.table(tablename)} t`.execute(t.store.db);
    text += rows.rows.map((r) => r.r).join('\n');
  }
  return text;
}

const notIn = (haystack: string, secrets: readonly string[], where: string): void => {
  for (const s of secrets) assert.ok(!haystack.includes(s), `'${s}' still in ${where}`);
};

/** A customer renamed once, with a stored record, a custom-field value, two confirmed orders (one with an Idempotency-Key) and an open order with a note. */
async function customerWithData(t: TestApp) {
  const p = person();
  const first = await createOrder(t);
  const res = await confirm(t, first, p.body);
  assert.equal(res.statusCode, 200, res.body);
  const customerId: string = json(res).CustomerId;
  // A payment and a refund recorded after the confirmation: their personal fields go too.
  for (const [kind, body] of [
    ['payments', { Amount: 3, Name: p.values.recordName, ReferenceNumber: p.values.recordRef }],
    ['refunds', { Amount: 1, ReferenceNumber: p.values.refundRef }],
  ] as const) {
    const recorded = await t.inject({ method: 'POST', url: `/orders/${first}/${kind}`, payload: body });
    assert.equal(recorded.statusCode, 201, recorded.body);
  }
  const former = await t.inject({
    method: 'PUT',
    url: `/customer/${customerId}`,
    payload: { ExternalId: p.values.ext, FirstName: p.values.formerFirst, LastName: p.values.formerLast, City: p.values.formerCity },
  });
  assert.equal(former.statusCode, 200, former.body);
  const put = await t.inject({
    method: 'PUT',
    url: `/customer/${customerId}`,
    payload: {
      ExternalId: p.values.ext,
      FirstName: p.values.first,
      LastName: p.values.last,
      Street: p.values.street,
      Quarter: p.values.quarter,
    },
  });
  assert.equal(put.statusCode, 200, put.body);
  const number = freshNumber();
  await define(t, number, { Label: 'Secret', FieldType: 'Text' });
  assert.equal((await setValue(t, customerId, number, p.values.cf)).statusCode, 200);
  const second = await createOrder(t, { Note: p.values.orderNote });
  const keyHeader = `k-${unique()}`;
  const keyedBody = { ...p.body, CustomerId: customerId, ExternalCustomerId: '' };
  const keyed = await confirm(t, second, keyedBody, { 'idempotency-key': keyHeader });
  assert.equal(keyed.statusCode, 200, keyed.body);
  return { ...p, customerId, orders: [first, second], keyedBody, keyHeader, keyedAnswer: json(keyed) };
}

describeEachBackend(
  'privacy: a customer exported and erased',
  (t) => {
    test('export: admin only, everything held about the customer, bank data in full only with bank; audited', async () => {
      const c = await customerWithData(t());
      assert.equal((await t().inject({ url: `/customer/${c.customerId}/export`, headers: bearer(t().keys.all) })).statusCode, 403);
      assert.equal((await t().inject('/customer/no-such-customer/export')).statusCode, 404);
      const masked = json(await t().inject(`/customer/${c.customerId}/export`));
      assert.deepEqual(Object.keys(masked), ['Customer', 'CustomFields', 'Orders', 'Events']);
      assert.equal(masked.Customer.CustomerId, c.customerId);
      assert.equal(masked.Customer.Quarter, c.values.quarter);
      assert.ok(masked.CustomFields.some((f: { Value: unknown }) => f.Value === c.values.cf));
      assert.deepEqual(masked.Orders.map((o: { OrderId: number }) => o.OrderId).sort(), [...c.orders].sort());
      assert.ok(!JSON.stringify(masked).includes(c.iban));
      assert.ok(masked.Events.length >= 4 && masked.Events.every((e: { Id: string }) => e.Id.startsWith('evt_')));
      const bankKey = (await createKey(t().app.writes, 'dpo', 'all,admin,bank')).key;
      const full = json(await t().inject({ url: `/customer/${c.customerId}/export`, headers: bearer(bankKey) }));
      assert.equal(full.Orders[0].Confirmation.CustomerIban, c.iban);
      const audit: Array<{ KeyId: string; Action: string; ResourceIds: string[] }> = json(await t().inject('/audit/?Take=10000'));
      const mine = audit.filter((a) => a.ResourceIds.includes(c.customerId) || c.orders.some((o) => a.ResourceIds.includes(String(o))));
      assert.deepEqual(
        mine.map((a) => a.Action),
        ['customer.export', 'customer.export', 'bank.read'],
      );
      assert.ok(!JSON.stringify(audit).includes(c.iban));
    });

    test('erase: nothing personal remains — in answers, feeds, events, exports, replays, logs or the store itself; accounting fields stay', async () => {
      const c = await customerWithData(t());
      const sequenceBefore = (json(await t().inject('/events/?Take=10000')) as Array<{ Sequence: number }>).at(-1)!.Sequence;
      const modifiedBefore = json(await t().inject(`/orders/?CustomerIds=${c.customerId}`)).map(
        (o: { LastModified: string }) => o.LastModified,
      );
      assert.equal(
        (await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase`, headers: bearer(t().keys.all) })).statusCode,
        403,
      );
      assert.ok((await storeText(t())).includes(c.values.first), 'a refused erasure changes nothing');
      // The second order's note was given before its confirmation: its order.created event holds it, written for no customer.
      const createdEvent = async () =>
        (
          json(await t().inject('/events/?Types=order.created&Take=10000')) as Array<{ Data: { OrderId: number; Note: string | null } }>
        ).find((e) => e.Data.OrderId === c.orders[1]);
      assert.equal((await createdEvent())?.Data.Note, c.values.orderNote);

      const res = await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase` });
      assert.equal(res.statusCode, 200, res.body);
      const answer = json(res);
      assert.equal(answer.CustomerId, c.customerId);
      assert.match(answer.ErasedAt, /^\/Date\(\d+-0000\)\/$/);

      // The customer: only its id.
      const [customer] = json(await t().inject(`/customer/?Identifiers=${c.customerId}`));
      assert.deepEqual(
        Object.entries(customer).filter(([k, v]) => k !== 'CustomerId' && v !== null),
        [],
      );
      // Its orders: personal fields null, accounting fields kept, stamps moved.
      const orders = json(await t().inject(`/orders/?CustomerIds=${c.customerId}`));
      assert.equal(orders.length, 2);
      for (const o of orders) {
        const conf = o.Confirmation;
        for (const f of [
          'CustomerFirstName',
          'CustomerLastName',
          'CustomerStreet',
          'CustomerEMail',
          'CustomerIban',
          'CustomerBic',
          'AccountHolderName',
          'Note',
          'ExternalCustomerId',
          'DeliveryAddressFirstName',
          'CustomerSepaMandateDate',
        ]) {
          assert.equal(conf[f], null, f);
        }
        assert.deepEqual(
          [
            conf.CustomerCountry,
            conf.PaymentMethod,
            conf.ShippingMethod,
            conf.OrderNumber,
            conf.MediaCode,
            conf.Payment.Amount,
            conf.Payment.Type,
          ],
          ['DE', 'SEPA', 'DHL', 'SHOP-1', 'NEWSLETTER', 42.5, 'PayPal'],
        );
        assert.ok(conf.Payment.Date && conf.DeliveryDate);
        assert.deepEqual([conf.Payment.Name, conf.Payment.ReferenceNumber, conf.Payment.FinancialAccountNumber], [null, null, null]);
        assert.equal(o.Status, 'Confirmed');
        assert.ok(!modifiedBefore.includes(o.LastModified), 'the order feed shows the erasure');
      }
      // Events: the erasure, and no payload holds the data any more.
      const events = json(await t().inject('/events/?Take=10000'));
      const after = events.filter((e: { Sequence: number }) => e.Sequence > sequenceBefore);
      assert.deepEqual(
        after.map((e: { Type: string; Data: unknown }) => [e.Type, e.Data]),
        [['customer.erased', { CustomerId: c.customerId }]],
      );

      const replay = await confirm(t(), c.orders[1]!, c.keyedBody, { 'idempotency-key': c.keyHeader });
      assert.equal(replay.statusCode, 200, replay.body);
      assert.deepEqual(json(replay), c.keyedAnswer);

      const answers = [
        JSON.stringify(events),
        JSON.stringify(json(await t().inject(`/customer/${c.customerId}/export`))),
        JSON.stringify(json(await t().inject('/customer/'))),
        JSON.stringify(json(await t().inject('/orders/'))),
        JSON.stringify(json(await t().inject(`/customer/${c.customerId}/customfields`))),
        JSON.stringify(json(await t().inject('/audit/?Take=10000'))),
        replay.body,
      ].join('\n');
      notIn(answers, c.secrets, 'an API answer');
      notIn(t().logs.join(''), c.secrets, 'the logs');
      assert.equal((await createdEvent())?.Data.Note, null, 'the event from before the confirmation is scrubbed too');
      notIn(await storeText(t()), c.secrets, 'the store');
    });

    test('erasing again answers the same 200 and changes nothing; a later confirmation for the same CustomerId works and is erased by the next erasure', async () => {
      const c = await customerWithData(t());
      const first = json(await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase` }));
      const eventsAfterFirst = json(await t().inject('/events/?Take=10000')).length;
      const again = await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase` });
      assert.equal(again.statusCode, 200);
      assert.deepEqual(json(again), first);
      assert.equal(json(await t().inject('/events/?Take=10000')).length, eventsAfterFirst, 'no event for an erasure that erased nothing');
      assert.equal((await t().inject({ method: 'POST', url: '/customer/no-such-customer/erase' })).statusCode, 404);

      const p = person();
      const later = await createOrder(t());
      const res = await confirm(t(), later, { ...p.body, CustomerId: c.customerId, ExternalCustomerId: '' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(json(res).CustomerId, c.customerId);
      const [customer] = json(await t().inject(`/customer/?Identifiers=${c.customerId}`));
      assert.equal(customer.FirstName, p.values.first);
      const third = json(await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase` }));
      assert.notDeepEqual(third, first);
      notIn(
        await storeText(t()),
        p.secrets.filter((s) => s !== p.values.ext),
        'the store after the second erasure',
      );
    });

    test('erasure records an audit entry; export and erase reject a missing or too long id', async () => {
      const c = await customerWithData(t());
      assert.equal((await t().inject({ method: 'POST', url: `/customer/${c.customerId}/erase` })).statusCode, 200);
      const audit: Array<{ Action: string; ResourceType: string; ResourceIds: string[] }> = json(await t().inject('/audit/?Take=10000'));
      assert.ok(audit.some((a) => a.Action === 'customer.erase' && a.ResourceType === 'customer' && a.ResourceIds[0] === c.customerId));
      errorOf(await t().inject({ method: 'POST', url: `/customer/${'x'.repeat(300)}/erase` }), 400);
    });
  },
  {},
  { pgbouncer: true },
);
