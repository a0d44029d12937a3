import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { confirmation } from '../orders/order-fixtures.js';
import { describeConsole, ADMIN_ONLY, HOSTILE } from './console-suite.js';
import { createShowcase, SHOWCASE_ORDER } from './showcase-data.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.

/** An amount as the page's own Intl writes it in this currency. */
const inPage = (page: Page, amount: number, currency: string): Promise<string> =>
  page.evaluate(
    ([a, c]) => new Intl.NumberFormat(undefined, { style: 'currency', currency: c as string }).format(a as number),
    [amount, currency],
  );

/** The value a definition list (by its accessible name) gives a term. */
const definitionOf = (page: Page, list: string, term: string): Promise<string> =>
  page.getByLabel(list, { exact: true }).locator(`dt:text-is("${term}") + dd`).innerText();

interface ShownOrder {
  Currency: string;
  Totals: { Gross: number };
  Refunded: number;
  Confirmation: { CustomerSepaMandateDate: string; DeliveryDate: string; Payment: { Amount: number; Date: string } };
}

describeConsole(
  'the console: Orders',
  (c) => {
    test("a shop's orders: amounts in the order's currency, dates in the browser's locale, fields under human labels", async () => {
      const { server, page, shot, assertAccessible, assertDatesFormatted } = c();
      const ids = await createShowcase((o) => server.t.inject(o));
      // The console opened on Orders at sign-in, before these orders: the page is read anew.
      await page.goto(`${server.baseUrl}/console/orders`);
      const rows = page.locator('table tbody tr');
      await page.getByRole('link', { name: 'TK-24056' }).waitFor();
      assert.equal(await rows.count(), ids.size);
      const listed = await page
        .getByRole('row', { name: new RegExp(SHOWCASE_ORDER) })
        .getByRole('cell')
        .allInnerTexts();
      const order = (await server.t.inject(`/orders/${ids.get(SHOWCASE_ORDER)!}?jsconfig=DateHandler:ISO8601`)).json() as ShownOrder;
      assert.ok(listed.includes(await inPage(page, order.Totals.Gross, order.Currency)), `the total in the list: ${listed.join(' | ')}`);
      assert.ok(
        listed.some((t) => t.startsWith('Lena Hoffmann')),
        'the customer by name',
      );
      await assertDatesFormatted('Orders');
      await assertAccessible('Orders');
      await shot('orders');

      await page.getByRole('link', { name: SHOWCASE_ORDER }).click();
      await page.getByRole('heading', { level: 1, name: `Order ${SHOWCASE_ORDER}` }).waitFor();
      await page.getByRole('table', { name: 'Refunds' }).waitFor();
      for (const heading of ['Customer', 'Delivery address', 'Bank and payment', 'Other'])
        await page.getByRole('heading', { level: 3, name: heading, exact: true }).waitFor();
      assert.equal(
        await definitionOf(page, 'Bank and payment', 'Payment amount'),
        await inPage(page, order.Confirmation.Payment.Amount, 'EUR'),
      );
      assert.equal(await definitionOf(page, 'Totals', 'Gross'), await inPage(page, order.Totals.Gross, 'EUR'));
      assert.equal(await definitionOf(page, 'Totals', 'Refunded'), await inPage(page, order.Refunded, 'EUR'));
      // A calendar date sent as midnight UTC is that day, in the browser's words.
      const mandate = await page.evaluate(
        (d) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(d)),
        order.Confirmation.CustomerSepaMandateDate,
      );
      assert.equal(await definitionOf(page, 'Bank and payment', 'SEPA mandate date'), mandate);
      assert.equal(await definitionOf(page, 'Delivery address', 'Street'), 'Industriestraße');
      assert.equal(await definitionOf(page, 'Customer', 'Postal code'), '79098');
      assert.equal(await definitionOf(page, 'Bank and payment', 'IBAN'), 'DE02********2051');
      const body = await page.locator('main').innerText();
      await assertDatesFormatted('Order');
      for (const wire of ['CustomerFirstName', 'DeliveryAddressStreet', 'CustomerIban', 'Payment.Amount', 'SepaMandate'])
        assert.ok(!body.includes(wire), `${wire}: a wire name shown`);
      await assertAccessible('Order');
      await shot('order');

      // West of Greenwich a calendar date sent as midnight UTC stays its day (not the evening before).
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setTimezoneOverride', { timezoneId: 'America/Los_Angeles' });
      try {
        await page.reload();
        await page.getByRole('heading', { level: 1, name: `Order ${SHOWCASE_ORDER}` }).waitFor();
        assert.equal(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone), 'America/Los_Angeles');
        assert.equal(await definitionOf(page, 'Bank and payment', 'SEPA mandate date'), mandate);
      } finally {
        await cdp.send('Emulation.setTimezoneOverride', { timezoneId: '' });
        await cdp.detach();
      }
    });

    test('Orders: filters in the address, keyset pages of 50, the order page with its confirmation, Cancel order', async () => {
      const { server, page, go, assertAccessible, assertDatesFormatted } = c();
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
      // The name stays text where the confirmation lists it and where the order names its customer.
      assert.equal(await definitionOf(page, 'Customer', 'First name'), HOSTILE);
      const customer = await definitionOf(page, 'Order', 'Customer');
      assert.ok(customer.startsWith(`${HOSTILE} Mustermann`), customer);
      assert.equal(await page.locator('main img').count(), 0, 'no element made of the name');
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      await page.getByText('DE89********3000').waitFor();
      await page.getByRole('heading', { name: 'Timeline' }).waitFor();
      assert.ok((await page.locator('ol.timeline li').count()) >= 2);
      // The confirmation's payment (an amount, a moment) and its dates, as the locale writes them.
      const [paid, sentDates] = await Promise.all([
        definitionOf(page, 'Bank and payment', 'Payment amount'),
        server.t.inject(`/orders/${confirmed}`).then((r) => (r.json() as ShownOrder).Confirmation),
      ]);
      assert.equal(paid, await inPage(page, sentDates.Payment.Amount, 'EUR'));
      assert.notEqual(paid, String(sentDates.Payment.Amount));
      await assertDatesFormatted('Order with the test confirmation');
      await assertAccessible('Order');
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
