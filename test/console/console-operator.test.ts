import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AddressInfo } from 'node:net';
import { describeConsole } from './console-suite.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.

describeConsole(
  'the console: Custom fields, Webhooks, API keys, Audit log',
  (c) => {
    test('Custom fields: a definition created, changed and deleted', async () => {
      const { server, page, go, shot, assertAccessible } = c();
      await go('Custom fields');
      await page.getByRole('button', { name: 'New field' }).click();
      await page.getByLabel('Number').fill('300');
      await page.getByLabel('Label').fill('Segment');
      await page.getByLabel('Type').selectOption('Select');
      await page.getByRole('button', { name: 'Create field' }).click();
      // A Select needs its allowed values: the API says so next to that field.
      await page
        .locator('.field', { has: page.getByLabel('Allowed values') })
        .locator('.field-error')
        .waitFor();
      await page.getByLabel('Allowed values').fill('A, B');
      await page.getByRole('button', { name: 'Create field' }).click();
      await page.getByRole('cell', { name: 'Segment', exact: true }).waitFor();
      const defs = () =>
        server.t.inject('/customfields/').then((r) => r.json() as Array<{ Number: number; Label: string; AllowedValues: string[] | null }>);
      assert.deepEqual((await defs()).find((d) => d.Number === 300)?.AllowedValues, ['A', 'B']);
      await assertAccessible('Custom fields');
      await shot('custom-fields');
      await page.getByRole('button', { name: 'Change Segment' }).click();
      await page.getByLabel('Label').fill('Segment 2');
      await page.getByRole('button', { name: 'Save field' }).click();
      await page
        .getByRole('cell', { name: 'Segment 2', exact: true })
        .waitFor()
        .catch(async (e: unknown) => {
          throw new Error(`${String(e)}: the page says ${await page.locator('main').innerText()}`);
        });
      assert.equal((await defs()).find((d) => d.Number === 300)?.Label, 'Segment 2');
      await page.getByRole('button', { name: 'Delete Segment 2' }).click();
      await page.getByRole('cell', { name: 'Segment 2', exact: true }).waitFor({ state: 'detached' });
      assert.equal(
        (await defs()).find((d) => d.Number === 300),
        undefined,
      );
    });

    test('Webhooks: created with the secret shown once, deliveries with their response code, Replay, Send test event, Rotate secret, Disable', async () => {
      const { server, page, receiver, go, shot, assertAccessible, assertDatesFormatted } = c();
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      await go('Webhooks');
      await page.getByLabel('URL').fill(url);
      await page.getByLabel('Event types').fill('customer.created');
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      const secret = (await page.getByLabel('Signing secret').innerText()).trim();
      assert.match(secret, /^whsec_/);
      await page.getByRole('button', { name: 'Copy' }).waitFor();
      await assertAccessible('Webhooks');
      await shot('webhooks');
      await page.getByRole('link', { name: url }).click();
      await page.getByRole('heading', { level: 1, name: `Webhook ${url}` }).waitFor();
      assert.equal(await page.getByLabel('Signing secret').count(), 0, 'the secret is not shown again');
      const put = await server.t.inject({ method: 'PUT', url: '/customer/hook-1', payload: { FirstName: 'Hook' } });
      assert.equal(put.statusCode, 201);
      // The dispatcher delivers within its poll interval; the page shows what it finds when reloaded.
      const [endpoint] = (await server.t.inject('/webhooks')).json() as Array<{ Id: string }>;
      for (let i = 0; i < 200; i++) {
        const d = (await server.t.inject(`/webhooks/${endpoint!.Id}/deliveries`)).json() as Array<{ ResponseCode: number | null }>;
        if (d.some((x) => x.ResponseCode === 500)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      await page.reload();
      await page.getByRole('cell', { name: '500', exact: true }).first().waitFor();
      await assertAccessible('Webhook');
      await assertDatesFormatted('Webhook');
      await shot('webhook');
      await page.getByRole('button', { name: 'Replay' }).first().click();
      await page.getByText(/Replay queued/).waitFor();
      const audit = () => server.t.inject('/audit/?Take=1000').then((r) => (r.json() as Array<{ Action: string }>).map((a) => a.Action));
      assert.ok((await audit()).includes('webhook.replay'));
      await page.getByRole('button', { name: 'Rotate secret' }).click();
      const rotated = (await page.getByLabel('Signing secret').innerText()).trim();
      assert.match(rotated, /^whsec_/);
      assert.notEqual(rotated, secret);
      const attempts = async () => ((await server.t.inject(`/webhooks/${endpoint!.Id}/deliveries?Take=100`)).json() as unknown[]).length;
      const before = await attempts();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByText('Test event not delivered, response 500: the receiver answered 500.').waitFor();
      assert.ok((await attempts()) > before, 'the test attempt is in the deliveries list');
      await page.getByRole('button', { name: 'Disable' }).click();
      await page.getByRole('button', { name: 'Enable' }).waitFor();
      assert.equal(((await server.t.inject(`/webhooks/${endpoint!.Id}`)).json() as { Enabled: boolean }).Enabled, false);
    });

    test('API keys: Create key shows it once, Revoke revokes it; the Audit log lists both, newest first, by action', async () => {
      const { server, page, go, shot, assertAccessible, assertDatesFormatted } = c();
      await go('API keys');
      await page.getByLabel('Name').fill('console-made');
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.getByLabel('New key').innerText()).trim();
      assert.match(key, /^og_/);
      const authed = await server.t.app.inject({ url: '/orders/?Take=1', headers: { authorization: `Bearer ${key}` } });
      assert.equal(authed.statusCode, 200, 'the new key works');
      const row = page.getByRole('row', { name: /console-made/ });
      await row.waitFor();
      await assertAccessible('API keys');
      await assertDatesFormatted('API keys');
      await shot('api-keys');
      await row.getByRole('button', { name: 'Revoke' }).click();
      await row.getByRole('button', { name: 'Revoke' }).waitFor({ state: 'detached' });
      const keys = (await server.t.inject('/keys')).json() as Array<{ Name: string; RevokedAt: string | null }>;
      assert.ok(keys.find((k) => k.Name === 'console-made')?.RevokedAt);

      await go('Audit log');
      const actions = page.locator('table tbody tr td:nth-child(4)');
      await actions.first().waitFor();
      const listed = await actions.allInnerTexts();
      assert.deepEqual(listed.slice(0, 2), ['key.revoke', 'key.create'], 'newest first');
      await page.getByLabel('Action').selectOption('webhook.create');
      await page.waitForURL(/Action=webhook.create/);
      assert.deepEqual([...new Set(await actions.allInnerTexts())], ['webhook.create']);
      await assertAccessible('Audit log');
      await assertDatesFormatted('Audit log');
      await shot('audit-log');
    });
  },
  { signedIn: true },
);
