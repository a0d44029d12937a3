import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confirmation } from '../orders/order-fixtures.js';
import { describeConsole, ADMIN_ONLY, HOSTILE } from './console-suite.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.

describeConsole(
  'the console: Orders',
  (c) => {
    test('Orders: filters in the address, keyset pages of 50, the order page with its confirmation, Cancel order', async () => {
      const { server, page, go, shot, assertAccessible } = c();
      const ids: number[] = [];
      for (let i = 0; i < 53; i++) {
        const res = await server.t.inject({
          method: 'POST',
          url: '/orders',
          payload: { OrderNumber: `LIST-${String(i).padStart(3, '0')}` },
        });
        assert.equal(res.statusCode, 201);
        ids.push((res.json() as { OrderId: number }).OrderId);
      }
      const confirmed = ids[0]!;
      const conf = await server.t.inject({
        method: 'POST',
        url: `/orders/${confirmed}/confirm`,
        payload: confirmation({ CustomerFirstName: HOSTILE }),
      });
      assert.equal(conf.statusCode, 200, conf.body);
      await go('Orders');
      await page.getByLabel('Status').selectOption('Open');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/Status=Open/);
      const rows = page.locator('table tbody tr');
      await page.getByRole('link', { name: 'LIST-001' }).waitFor();
      assert.equal(await rows.count(), 50);
      const first = await rows.locator('td:first-child').allInnerTexts();
      assert.ok(!first.includes('LIST-000'), 'the confirmed order is filtered out');
      await assertAccessible('Orders');
      await shot('orders');
      await page.getByRole('button', { name: 'Next page' }).click();
      await page.waitForURL(/Cursor=/);
      await page.getByRole('link', { name: 'LIST-052' }).waitFor();
      const second = await rows.locator('td:first-child').allInnerTexts();
      assert.deepEqual(
        second.filter((n) => first.includes(n)),
        [],
        'no order on both pages',
      );
      assert.equal(first.length + second.length, 52);
      // The address alone restores the page (a reload, a shared link).
      await page.reload();
      await page.getByRole('link', { name: 'LIST-052' }).waitFor();
      // Text search (Query) with the other filters, kept in the address as they are.
      await page.getByLabel('Search').fill('list-052');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/Query=list-052.*Status=Open/);
      await page.getByRole('link', { name: 'LIST-051' }).waitFor({ state: 'detached' });
      // The earlier rows leave before the search's rows arrive: read the list once it shows them.
      await page.getByRole('link', { name: 'LIST-052' }).waitFor();
      assert.deepEqual(await rows.locator('td:first-child').allInnerTexts(), ['LIST-052']);

      await page.goto(`${server.baseUrl}/console/orders/${confirmed}`);
      await page.getByRole('heading', { level: 1, name: 'Order LIST-000' }).waitFor();
      const conf1 = page.getByRole('definition').filter({ hasText: HOSTILE });
      assert.equal(await conf1.count(), 1, 'the hostile name is text');
      await page.getByText('DE89********3000').waitFor();
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      assert.ok((await page.locator('ol.timeline li').count()) >= 2);
      await assertAccessible('Order');
      await shot('order');
      await page.getByRole('button', { name: 'Cancel order' }).click();
      await page
        .getByRole('definition')
        .filter({ hasText: /^Cancelled$/ })
        .waitFor();
      assert.equal(((await server.t.inject(`/orders/${confirmed}`)).json() as { Status: string }).Status, 'Cancelled');
      assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0, 'not offered for a cancelled order');
    });

    test('Create order: a duplicate number is refused next to its field; a new one opens its page', async () => {
      const { server, page, go } = c();
      await go('Orders');
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByLabel('Order number').fill('LIST-001');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const field = page.locator('.field', { has: page.getByLabel('Order number') });
      await field.locator('.field-error').waitFor();
      await page.getByLabel('Order number').fill('WEB-NEW');
      await page.getByLabel('Note').fill(HOSTILE);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Order WEB-NEW' }).waitFor();
      // The order's note is shown on its page, as text.
      await page.getByRole('definition').filter({ hasText: HOSTILE }).waitFor();
      const found = (await server.t.inject('/orders/?OrderNumbers=WEB-NEW')).json() as Array<{ Status: string }>;
      assert.equal(found.length, 1);
      assert.equal(found[0]!.Status, 'Open');
    });

    test('a key without admin is offered nothing it may not do', async () => {
      const { server, page, signIn, go } = c();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('API key').waitFor();
      await signIn(server.t.keys.all);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Orders', exact: true }).waitFor();
      for (const name of ADMIN_ONLY) assert.equal(await nav.getByRole('link', { name, exact: true }).count(), 0, name);
      await go('Orders');
      await page.getByRole('link', { name: 'LIST-001' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Create order' }).count(), 0);
      await page.getByRole('link', { name: 'LIST-001' }).click();
      await page.getByRole('heading', { level: 1, name: 'Order LIST-001' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0);
      await page.getByRole('button', { name: 'Sign out' }).click();
    });
  },
  { signedIn: true },
);
