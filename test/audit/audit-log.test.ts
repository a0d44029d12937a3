import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createKey } from '../../src/auth/key.service.js';
import { assertBuilt } from '../helpers/cli.js';
import { CliThread } from '../helpers/cli-in-thread.js';
import { bearer, describeEachBackend, json } from '../helpers/test-app.js';
import { IBAN, confirm, confirmation, createOrder } from '../orders/order-fixtures.js';

interface Entry {
  Sequence: number;
  At: string;
  KeyId: string;
  Action: string;
  ResourceType: string;
  ResourceIds: string[];
}

describeEachBackend('the audit log', (t) => {
  let bankKey: string;
  let confirmed: number, open: number;
  const entries = async (after = 0): Promise<Entry[]> => {
    const res = await t().inject(`/audit/?After=${after}`);
    assert.equal(res.statusCode, 200, res.body);
    return json(res);
  };
  const last = async (): Promise<number> => (await entries()).at(-1)?.Sequence ?? 0;
  // The CLI's commands run in one thread of this process (the built CLI's main()), without a node process each.
  let thread: CliThread;
  after(() => thread.close());
  before(async () => {
    thread = new CliThread();
    bankKey = (await createKey(t().app.writes, 'erp', 'all,bank')).key;
    confirmed = await createOrder(t());
    open = await createOrder(t());
    assert.equal((await confirm(t(), confirmed, confirmation())).statusCode, 200);
  });

  test('an unmasked read records one bank.read entry with the key id and order ids; masked reads record nothing', async () => {
    const from = await last();
    for (const key of [t().keys.all, t().keys.admin]) {
      assert.equal((await t().inject({ url: `/orders/${confirmed}`, headers: bearer(key) })).statusCode, 200);
      assert.equal((await t().inject({ url: '/orders/', headers: bearer(key) })).statusCode, 200);
    }
    assert.deepEqual(await entries(from), []);
    assert.equal((await t().inject({ url: `/orders/${confirmed}`, headers: bearer(bankKey) })).statusCode, 200);
    assert.equal((await t().inject({ url: `/orders/${open}`, headers: bearer(bankKey) })).statusCode, 200); // no bank data: nothing to record
    assert.equal((await t().inject({ url: `/orders/?OrderIds=${confirmed},${open}`, headers: bearer(bankKey) })).statusCode, 200);
    const got = await entries(from);
    assert.deepEqual(
      got.map(({ KeyId, Action, ResourceType, ResourceIds }) => ({ KeyId, Action, ResourceType, ResourceIds })),
      [
        { KeyId: bankKey.slice(0, 12), Action: 'bank.read', ResourceType: 'order', ResourceIds: [String(confirmed)] },
        { KeyId: bankKey.slice(0, 12), Action: 'bank.read', ResourceType: 'order', ResourceIds: [String(confirmed)] },
      ],
    );
    assert.ok(got[0]!.Sequence < got[1]!.Sequence);
    assert.match(got[0]!.At, /^\/Date\(\d+-0000\)\/$/);
    const text = JSON.stringify(await entries());
    for (const value of [IBAN, 'COBADEFFXXX', 'MANDATE-1', 'Erika']) assert.ok(!text.includes(value), `${value} in the audit log`);
  });

  test('GET /audit/: admin only, ascending after a Sequence, Take limited', async () => {
    assert.equal((await t().inject({ url: '/audit/', headers: bearer(t().keys.all) })).statusCode, 403);
    assert.equal((await t().inject({ url: '/audit/', headers: bearer(bankKey) })).statusCode, 403);
    const all = await entries();
    assert.ok(all.length >= 2);
    assert.deepEqual(
      all.map((e) => e.Sequence),
      [...all.map((e) => e.Sequence)].sort((a, b) => a - b),
    );
    const page = json(await t().inject(`/audit/?After=${all[0]!.Sequence}&Take=1`));
    assert.deepEqual(page, [all[1]]);
    for (const [query, field, code] of [
      ['Take=10001', 'Take', 'InclusiveBetween'],
      ['Take=-1', 'Take', 'InclusiveBetween'],
      ['After=x', 'After', 'SerializationException'],
    ]) {
      const res = await t().inject(`/audit/?${query}`);
      assert.equal(res.statusCode, 400, query);
      assert.deepEqual(
        json(res).ResponseStatus.Errors.map((e: { FieldName: string; ErrorCode: string }) => [e.FieldName, e.ErrorCode]),
        [[field, code]],
      );
    }
  });

  test('CLI: keys create and revoke record key.create and key.revoke by cli; audit list prints the entries, --since filters', async () => {
    assertBuilt();
    const env = { DATABASE_URL: t().config.databaseUrl };
    const from = await last();
    const created = await thread.cli(['keys', 'create', '--name', 'audited', '--permissions', 'all'], env);
    assert.equal(created.code, 0, created.stderr);
    const id = created.stdout.trimEnd().split('\n').pop()!.slice(0, 12);
    assert.equal((await thread.cli(['keys', 'revoke', id], env)).code, 0);
    const got = await entries(from);
    assert.deepEqual(
      got.map((e) => [e.KeyId, e.Action, e.ResourceType, e.ResourceIds]),
      [
        ['cli', 'key.create', 'key', [id]],
        ['cli', 'key.revoke', 'key', [id]],
      ],
    );
    const listed = await thread.cli(['audit', 'list'], env);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, new RegExp(`^${got[0]!.Sequence} \\S+Z cli key.create key ${id}$`, 'm'));
    assert.match(listed.stdout, / bank\.read order /);
    const future = await thread.cli(['audit', 'list', '--since', '2999-01-01'], env);
    assert.equal(future.stdout, '');
    const bad = await thread.cli(['audit', 'list', '--since', 'soon'], env);
    assert.equal(bad.code, 2);
  });
});
