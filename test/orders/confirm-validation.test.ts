import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json } from '../helpers/test-app.js';
import { storeDigest } from '../helpers/store-snapshot.js';
import { IBAN, confirm, confirmation, createOrder, fieldErrors } from './order-fixtures.js';

const REQUIRED = [
  'CustomerFirstName',
  'CustomerLastName',
  'CustomerPostalCode',
  'CustomerCity',
  'CustomerCountry',
  'CustomerStreet',
  'CustomerEMail',
];

describeEachBackend('ConfirmOrder validation', (t) => {
  test('each required field, absent, null or blank, is NotEmpty', async () => {
    const id = await createOrder(t());
    for (const field of REQUIRED) {
      for (const value of [undefined, null, '', '   ']) {
        const body = confirmation({ [field]: value });
        if (value === undefined) delete body[field];
        const res = await confirm(t(), id, body);
        assert.equal(res.statusCode, 400, `${field}=${JSON.stringify(value)}`);
        assert.deepEqual(fieldErrors(json(res)), { [field]: 'NotEmpty' }, `${field}=${JSON.stringify(value)}`);
      }
    }
  });

  test('string lengths: Note up to 1000, every other string up to 255, nested ones too', async () => {
    const id = await createOrder(t());
    assert.equal((await confirm(t(), id, confirmation({ Note: 'n'.repeat(1000), CustomerCity: 'c'.repeat(255) }))).statusCode, 200);
    const id2 = await createOrder(t());
    const res = await confirm(
      t(),
      id2,
      confirmation({
        Note: 'n'.repeat(1001),
        CustomerCity: 'c'.repeat(256),
        MediaCode: 'm'.repeat(256),
        CustomerId: 'x'.repeat(256),
        Payment: { Amount: 1, Name: 'p'.repeat(256), ReferenceNumber: 'r'.repeat(256) },
      }),
    );
    assert.equal(res.statusCode, 400);
    assert.deepEqual(fieldErrors(json(res)), {
      Note: 'Length',
      CustomerCity: 'Length',
      MediaCode: 'Length',
      CustomerId: 'Length',
      'Payment.Name': 'Length',
      'Payment.ReferenceNumber': 'Length',
    });
    assert.match(json(res).ResponseStatus.Errors.find((e: { FieldName: string }) => e.FieldName === 'Note').Message, /1000/);
  });

  test('CustomerEMail must be an address; a blank one is only NotEmpty', async () => {
    const id = await createOrder(t());
    for (const bad of ['erika', 'erika@', '@example.com', 'erika@example', 'er ika@example.com']) {
      const res = await confirm(t(), id, confirmation({ CustomerEMail: bad }));
      assert.deepEqual(fieldErrors(json(res)), { CustomerEMail: 'Email' }, bad);
    }
    assert.deepEqual(fieldErrors(json(await confirm(t(), id, confirmation({ CustomerEMail: ' ' })))), { CustomerEMail: 'NotEmpty' });
  });

  test('IBAN: country, length and check digits; spaces and lower case are fine; the value is never echoed', async () => {
    const id = await createOrder(t());
    for (const bad of ['DE89370400440532013001', 'DE8937040044053201300', 'XX89370400440532013000', 'not an iban']) {
      const res = await confirm(t(), id, confirmation({ CustomerIban: bad }));
      assert.deepEqual(fieldErrors(json(res)), { CustomerIban: 'Iban' }, bad);
      assert.ok(!res.body.includes(bad), 'the IBAN must not be repeated in the answer');
    }
    const ok = await confirm(t(), id, confirmation({ CustomerIban: 'de89 3704 0044 0532 0130 00' }));
    assert.equal(ok.statusCode, 200, ok.body);
    const stored = json(await t().inject(`/orders/${id}`)).Confirmation.CustomerIban;
    assert.equal(stored, 'DE89********3000');
  });

  test('BIC: 8 or 11 characters of the right shape; empty IBAN and BIC are not checked', async () => {
    const id = await createOrder(t());
    for (const bad of ['COBADEFF1', 'COBA', '12345678', 'COBADEFFXXXX']) {
      assert.deepEqual(fieldErrors(json(await confirm(t(), id, confirmation({ CustomerBic: bad })))), { CustomerBic: 'Bic' }, bad);
    }
    const res = await confirm(t(), id, confirmation({ CustomerBic: 'COBADEFF', CustomerIban: '' }));
    assert.equal(res.statusCode, 200, res.body);
    const empty = await confirm(t(), await createOrder(t()), confirmation({ CustomerBic: '', CustomerIban: '' }));
    assert.equal(empty.statusCode, 200, empty.body);
  });

  test('Payment: Amount required, ≥ 0, at most two decimals; Name required; Type PayPal, Unknown or empty', async () => {
    const id = await createOrder(t());
    const cases: Array<[Record<string, unknown>, Record<string, string>]> = [
      [{}, { 'Payment.Amount': 'NotNull', 'Payment.Name': 'NotEmpty' }],
      [{ Amount: -0.01, Name: 'x' }, { 'Payment.Amount': 'GreaterThanOrEqual' }],
      [{ Amount: 1.005, Name: 'x' }, { 'Payment.Amount': 'ScalePrecision' }],
      [{ Amount: 1e17, Name: 'x' }, { 'Payment.Amount': 'ScalePrecision' }],
      [{ Amount: 1, Name: ' ' }, { 'Payment.Name': 'NotEmpty' }],
      [{ Amount: 1, Name: 'x', Type: 'paypal' }, { 'Payment.Type': 'Enum' }],
      [{ Amount: 1, Name: 'x', Type: 'Visa' }, { 'Payment.Type': 'Enum' }],
    ];
    for (const [payment, expected] of cases) {
      const res = await confirm(t(), id, confirmation({ Payment: payment }));
      assert.equal(res.statusCode, 400, JSON.stringify(payment));
      assert.deepEqual(fieldErrors(json(res)), expected, JSON.stringify(payment));
    }
    for (const type of ['PayPal', 'Unknown', '']) {
      const res = await confirm(t(), await createOrder(t()), confirmation({ Payment: { Amount: 0, Name: 'x', Type: type } }));
      assert.equal(res.statusCode, 200, `${type}: ${res.body}`);
    }
    const noPayment = await confirm(t(), await createOrder(t()), confirmation({ Payment: null }));
    assert.equal(noPayment.statusCode, 200);
  });

  test('a non-number Amount is a SerializationException naming Payment.Amount', async () => {
    const res = await confirm(t(), await createOrder(t()), confirmation({ Payment: { Amount: 'ten', Name: 'x' } }));
    assert.equal(res.statusCode, 400);
    assert.equal(json(res).ResponseStatus.ErrorCode, 'SerializationException');
    assert.equal(json(res).ResponseStatus.Errors[0].FieldName, 'Payment.Amount');
  });

  test('every problem at once, one entry per field, the first one also top-level', async () => {
    const id = await createOrder(t());
    const res = await confirm(t(), id, {
      OrderId: id + 1,
      CustomerFirstName: '',
      CustomerEMail: 'nope',
      CustomerIban: 'DE00',
      CustomerBic: 'x',
      Note: 'n'.repeat(1001),
      Payment: { Amount: -1.234, Type: 'Cash' },
    });
    assert.equal(res.statusCode, 400);
    const status = json(res).ResponseStatus;
    assert.deepEqual(fieldErrors(json(res)), {
      OrderId: 'Equal',
      CustomerFirstName: 'NotEmpty',
      CustomerLastName: 'NotEmpty',
      CustomerPostalCode: 'NotEmpty',
      CustomerCity: 'NotEmpty',
      CustomerCountry: 'NotEmpty',
      CustomerStreet: 'NotEmpty',
      CustomerEMail: 'Email',
      CustomerIban: 'Iban',
      CustomerBic: 'Bic',
      Note: 'Length',
      'Payment.Amount': 'GreaterThanOrEqual',
      'Payment.Name': 'NotEmpty',
      'Payment.Type': 'Enum',
    });
    assert.equal(status.Errors.length, 14);
    assert.equal(status.ErrorCode, status.Errors[0].ErrorCode);
    assert.equal(status.Message, status.Errors[0].Message);
    assert.equal(json(await t().inject(`/orders/${id}`)).Status, 'Open');
  });

  test('body OrderId: absent, 0 or the path id are accepted; another id is an Equal error', async () => {
    const ids = [await createOrder(t()), await createOrder(t()), await createOrder(t())];
    assert.equal((await confirm(t(), ids[0]!, confirmation())).statusCode, 200);
    assert.equal((await confirm(t(), ids[1]!, confirmation({ OrderId: 0 }))).statusCode, 200);
    assert.equal((await confirm(t(), ids[2]!, confirmation({ orderid: ids[2] }))).statusCode, 200);
    const other = await createOrder(t());
    const res = await confirm(t(), other, confirmation({ OrderId: ids[0] }));
    assert.equal(res.statusCode, 400);
    assert.deepEqual(fieldErrors(json(res)), { OrderId: 'Equal' });
  });

  test('a non-integer path id is a 400 SerializationException; 0 and negative ids are 400 too', async () => {
    for (const path of ['abc', '1.5', '99999999999999999999']) {
      const res = await confirm(t(), path, confirmation());
      assert.equal(res.statusCode, 400, path);
      assert.equal(json(res).ResponseStatus.ErrorCode, 'SerializationException', path);
      assert.equal(json(res).ResponseStatus.Errors[0].FieldName, 'OrderId', path);
    }
    for (const path of ['0', '-3']) {
      const res = await confirm(t(), path, confirmation());
      assert.deepEqual(fieldErrors(json(res)), { OrderId: 'GreaterThan' }, path);
    }
  });

  test('dates in every wire form; an unreadable date is a SerializationException naming the field', async () => {
    const forms = [
      '\\/Date(1700000000000)\\/',
      '/Date(1700000000000+0100)/',
      '\\/Date(1700000000000-0000)\\/',
      '2023-11-14T22:13:20Z',
      '2023-11-14T23:13:20+01:00',
      '2023-11-14T22:13:20.000',
    ];
    for (const form of forms) {
      const id = await createOrder(t());
      const res = await confirm(
        t(),
        id,
        confirmation({ CustomerSepaMandateDate: form, DeliveryDate: form, Payment: { Amount: 1, Name: 'x', Date: form } }),
      );
      assert.equal(res.statusCode, 200, `${form}: ${res.body}`);
      const c = json(await t().inject(`/orders/${id}`)).Confirmation;
      for (const v of [c.CustomerSepaMandateDate, c.DeliveryDate, c.Payment.Date]) assert.equal(v, '/Date(1700000000000-0000)/', form);
    }
    const plain = await confirm(t(), await createOrder(t()), confirmation({ DeliveryDate: '2024-02-29' }));
    assert.equal(plain.statusCode, 200);
    const bad = await confirm(t(), await createOrder(t()), confirmation({ DeliveryDate: '2024-02-30' }));
    assert.equal(bad.statusCode, 400);
    assert.equal(json(bad).ResponseStatus.Errors[0].FieldName, 'DeliveryDate');
  });

  test('validation comes before the existence check: an invalid body on an unknown order is a 400, a valid one a 404', async () => {
    const invalid = await confirm(t(), 987654321, { CustomerFirstName: 'x' });
    assert.equal(invalid.statusCode, 400);
    const valid = await confirm(t(), 987654321, confirmation());
    assert.equal(valid.statusCode, 404);
    assert.equal(json(valid).ResponseStatus.ErrorCode, 'NotFound');
  });

  test('a refused confirmation changes nothing, and bank data and e-mail never reach the log', async () => {
    const id = await createOrder(t());
    const before = await storeDigest(t().store);
    await confirm(t(), id, confirmation({ CustomerEMail: 'secret-mail@example.org', CustomerIban: 'DE89370400440532013001' }));
    await confirm(t(), id, confirmation({ CustomerId: 'nobody-has-this-id' }));
    assert.equal(await storeDigest(t().store), before);
    await confirm(t(), id, confirmation({ CustomerEMail: 'secret-mail@example.org' }));
    const logs = t().logs.join('\n');
    for (const secret of [IBAN, 'DE89370400440532013001', 'COBADEFFXXX', 'secret-mail@example.org'])
      assert.ok(!logs.includes(secret), secret);
  });
});
