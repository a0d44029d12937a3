import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { createKey } from '../../src/auth/key.service.js';
import { assertBuilt, runCli } from '../helpers/cli.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';
import { BIC, IBAN, MASKED_IBAN, confirm, confirmation, createOrder } from './order-fixtures.js';

const FULL = { CustomerIban: IBAN, CustomerBic: BIC, CustomerSepaMandateReference: 'MANDATE-1', AccountHolderName: 'Erika Mustermann' };
const MASKED = { CustomerIban: MASKED_IBAN, CustomerBic: 'COBA****XXX', CustomerSepaMandateReference: '***', AccountHolderName: '***' };
const bankFields = (confirmationView: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(FULL).map((f) => [f, confirmationView[f]]));

describeEachBackend('bank data: in full only for a key with the permission bank', (t) => {
  let bankKey: string;
  let orderId: number;
  before(async () => {
    bankKey = (await createKey(t().app.writes, 'erp', 'all,bank')).key;
    orderId = await createOrder(t());
    assert.equal((await confirm(t(), orderId, confirmation())).statusCode, 200);
  });

  const reads = () => [
    `/orders/${orderId}`,
    `/orders/?OrderIds=${orderId}`,
    `/api/SearchOrders?OrderIds=${orderId}`,
    `/orders/${orderId}?jsconfig=EmitCamelCaseNames:true`,
  ];

  test('keys without bank (all, all+admin) see IBAN, BIC, mandate reference and account holder masked, on GET and in the feed', async () => {
    for (const key of [t().keys.all, t().keys.admin]) {
      const one = json(await t().inject({ url: `/orders/${orderId}`, headers: bearer(key) }));
      assert.deepEqual(bankFields(one.Confirmation), MASKED);
      const [fed] = json(await t().inject({ url: `/orders/?OrderIds=${orderId}`, headers: bearer(key) }));
      assert.deepEqual(bankFields(fed.Confirmation), MASKED);
      // Other fields are not masked.
      assert.equal(fed.Confirmation.CustomerEMail, 'erika@example.com');
    }
  });

  test('a key with bank reads them in full on GET and in the feed', async () => {
    const one = json(await t().inject({ url: `/orders/${orderId}`, headers: bearer(bankKey) }));
    assert.deepEqual(bankFields(one.Confirmation), FULL);
    const [fed] = json(
      await t().inject({ method: 'POST', url: '/orders/search', payload: { OrderIds: [orderId] }, headers: bearer(bankKey) }),
    );
    assert.deepEqual(bankFields(fed.Confirmation), FULL);
  });

  test('without bank, no stored IBAN, BIC or mandate reference anywhere: answers in every form, errors, logs', async () => {
    const from = t().logs.length;
    for (const key of [t().keys.all, t().keys.admin]) {
      for (const url of [...reads(), `/orders/?OrderNumbers=${IBAN}&Take=-1`, `/orders/?callback=cb&OrderIds=${orderId}`]) {
        const res = await t().inject({ url, headers: bearer(key) });
        for (const secret of [IBAN, BIC, 'MANDATE-1'])
          assert.ok(!res.body.includes(secret), `${url}: ${secret} in ${res.body.slice(0, 200)}`);
      }
    }
    const logs = t().logs.slice(from).join('');
    for (const secret of [IBAN, BIC]) assert.ok(!logs.includes(secret), `${secret} in the logs`);
  });

  test('CLI: keys create --permissions all,bank makes a key that reads bank data; keys list shows the permission', async () => {
    assertBuilt();
    const env = { DATABASE_URL: t().config.databaseUrl };
    const created = await runCli(['keys', 'create', '--name', 'erp-cli', '--permissions', 'all,bank'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = created.stdout.trimEnd().split('\n').pop()!;
    assert.deepEqual(bankFields(json(await t().inject({ url: `/orders/${orderId}`, headers: bearer(key) })).Confirmation), FULL);
    const listed = await runCli(['keys', 'list'], env);
    assert.match(listed.stdout, new RegExp(`^${key.slice(0, 12)} erp-cli all,bank `, 'm'));
    const unknown = await runCli(['keys', 'create', '--name', 'x', '--permissions', 'all,banking'], env);
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /all, admin, bank/);
  });
});
