import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import type { Request } from 'playwright-core';
import { describeConsole, NAV, HOSTILE } from './console-suite.js';
import { createShowcase, SHOWCASE_CUSTOMER, SHOWCASE_CUSTOMERS } from './showcase-data.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.

describeConsole('the console: sign-in, Status, Customers', (c) => {
  test('a browser at / lands on the sign-in; a wrong key is refused next to the field; the right one opens the console', async () => {
    const { server, page, session, signIn, shot, assertAccessible } = c();
    await page.goto(`${server.baseUrl}/`);
    assert.equal(new URL(page.url()).pathname, '/console/');
    await page.getByRole('heading', { name: 'ordergate console' }).waitFor();
    await assertAccessible('sign-in');
    await shot('sign-in');
    await signIn('og_not-a-key-of-this-service');
    const field = page.getByLabel('API key');
    await page
      .getByText(/API key|Invalid|not valid|unknown/i)
      .and(page.locator('.field-error'))
      .waitFor();
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    // What the key may do is asked once, not tried: no request the service must refuse.
    const asked: string[] = [];
    const record = (r: Request): void => {
      if (r.url().startsWith(server.baseUrl) && !r.url().includes('/console/')) asked.push(`${r.method()} ${new URL(r.url()).pathname}`);
    };
    page.on('request', record);
    await signIn(server.t.keys.admin);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of NAV) await nav.getByRole('link', { name, exact: true }).waitFor();
    await page.getByText('test-admin: all, admin').waitFor();
    assert.equal(asked.filter((a) => a === 'GET /keys/current').length, 1, asked.join('\n'));
    for (const probe of ['POST /orders/0/payments', 'GET /audit/', 'GET /events/'])
      assert.ok(!asked.includes(probe), `${probe} asked at sign-in: ${asked.join(', ')}`);
    page.off('request', record);
    assert.equal(await page.evaluate(() => sessionStorage.length), 1, 'the key is in sessionStorage');
    assert.equal(await page.evaluate(() => localStorage.length), 0, 'and nowhere else');
    assert.deepEqual(await session.context.cookies(), []);
    assert.doesNotMatch(page.url(), new RegExp(server.t.keys.admin.slice(3, 12)));
  });

  test('Status: readiness, replica, webhook backlog, the last Sequence, version', async () => {
    const { server, page, go, shot, assertAccessible } = c();
    // A shop's customers and orders: events for the feed here, and the pages the next test shows.
    await createShowcase((o) => server.t.inject(o));
    const events = (await server.t.inject('/events/?Take=1000')).json() as Array<{ Sequence: number }>;
    const last = events[events.length - 1]!.Sequence;
    await go('Status');
    const facts = page.locator('dl.facts');
    await facts.waitFor();
    const text = (await facts.innerText()).replace(/\s+/g, ' ');
    assert.match(text, /Readiness Ready/);
    assert.match(text, /Replica lag No read replica/);
    assert.match(text, /Webhook backlog Nothing waiting/);
    assert.match(text, new RegExp(`Last event Sequence ${new Intl.NumberFormat('en-US').format(last)}`));
    assert.match(text, /Version \d+\.\d+\.\d+/);
    await assertAccessible('Status');
    await shot('status');
  });

  test('Customers: found by id, the page with the 14 fields, custom fields by type, the orders, a hostile name stays text', async () => {
    const { server, page, go, shot, assertAccessible, assertDatesFormatted } = c();
    const defs: Array<[number, string, string, string[] | null]> = [
      [101, 'Tier', 'Select', ['Gold', 'Silver']],
      [102, 'Visits', 'Number', null],
      [103, 'Newsletter', 'Boolean', null],
      [104, 'Since', 'Date', null],
      [105, 'Credit', 'Decimal', null],
      [106, 'Topics', 'MultiSelect', ['Black tea', 'Green tea', 'Teaware']],
      [107, 'Remark', 'Text', null],
    ];
    for (const [n, Label, FieldType, AllowedValues] of defs) {
      const res = await server.t.inject({ method: 'PUT', url: `/customfields/${n}`, payload: { Label, FieldType, AllowedValues } });
      assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
    }
    // A shop's customer (made in the Status test) with values in its custom fields, as the screenshots show it.
    const values = await server.t.inject({
      method: 'PATCH',
      url: `/customer/${SHOWCASE_CUSTOMER}/customfields/`,
      payload: {
        Values: [
          { Number: 101, Value: 'Gold' },
          { Number: 102, Value: 14 },
          { Number: 103, Value: true },
          { Number: 104, Value: '2021-03-08' },
          { Number: 105, Value: 150 },
          { Number: 106, Value: ['Black tea', 'Teaware'] },
          { Number: 107, Value: 'Bestellt quartalsweise' },
        ],
      },
    });
    assert.equal(values.statusCode, 200, values.body);
    await go('Customers');
    await page.getByRole('link', { name: SHOWCASE_CUSTOMER }).waitFor();
    assert.deepEqual(
      (await page.locator('table tbody tr td:first-child').allInnerTexts()).sort(),
      SHOWCASE_CUSTOMERS.map((s) => s.CustomerId).sort(),
      'the shop customers only',
    );
    await assertAccessible('Customers');
    await assertDatesFormatted('Customers');
    await shot('customers');
    await page.getByRole('link', { name: SHOWCASE_CUSTOMER }).click();
    await page.getByRole('heading', { level: 1, name: `Customer ${SHOWCASE_CUSTOMER}` }).waitFor();
    await page.getByRole('table', { name: `Orders of ${SHOWCASE_CUSTOMER}` }).waitFor();
    const address = page.getByLabel('Address', { exact: true });
    assert.equal(await address.locator('dt:text-is("Postal code") + dd').innerText(), '79098');
    assert.equal(
      await page.getByLabel('Customer', { exact: true }).locator('dt:text-is("Company") + dd').innerText(),
      'Hoffmann Feinkost GmbH',
    );
    assert.equal(await page.getByLabel('Tier').inputValue(), 'Gold');
    await assertAccessible('Customer');
    await assertDatesFormatted('Customer');
    await shot('customer');

    const put = await server.t.inject({
      method: 'PUT',
      url: '/customer/web-1',
      payload: { FirstName: HOSTILE, LastName: '<script>window.__pwned=2</script>', City: 'Köln', PostalCode: '50667' },
    });
    assert.equal(put.statusCode, 201);
    await go('Customers');
    await page.getByLabel('Customer ids').fill('web-1');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'web-1' }).waitFor();
    assert.match(new URL(page.url()).search, /Ids=web-1/, 'the filter is in the address');
    const row = page.getByRole('row', { name: /web-1/ });
    assert.equal(await row.getByRole('cell').nth(1).innerText(), `${HOSTILE} <script>window.__pwned=2</script>`);
    assert.equal(await page.locator('table img, table script').count(), 0, 'no element made of the name');
    await assertAccessible('Customers');

    await page.getByRole('link', { name: 'web-1' }).click();
    await page.getByRole('heading', { level: 1, name: 'Customer web-1' }).waitFor();
    const facts = page.getByRole('definition');
    await facts.first().waitFor();
    assert.equal(await page.locator('dl.facts dt').count(), 14);
    assert.equal(await page.getByText(HOSTILE, { exact: true }).count(), 1);
    assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);

    await page.getByLabel('Tier').selectOption('Gold');
    await page.getByLabel('Visits').fill('12');
    await page.getByLabel('Newsletter').selectOption({ label: 'Yes' });
    await page.getByLabel('Since').fill('2024-05-01');
    await page.getByLabel('Topics').selectOption(['Green tea', 'Teaware']);
    await page.getByLabel('Remark').fill(HOSTILE);
    await page.getByLabel('Credit').fill('12.5.1');
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    // The API names the Decimal field's entry; its message stands under that input.
    const credit = page.locator('.field', { has: page.getByLabel('Credit') });
    await credit
      .locator('.field-error')
      .waitFor()
      .catch(async (e: unknown) => {
        throw new Error(`${String(e)}: the page says ${await page.locator('main').innerText()}`);
      });
    assert.equal(await page.getByLabel('Credit').getAttribute('aria-invalid'), 'true');
    const before = (await server.t.inject('/customer/web-1/customfields/')).json() as Array<{ Number: number; Value: unknown }>;
    assert.ok(
      before.every((f) => f.Value === null),
      'nothing written: all or nothing',
    );
    await page.getByLabel('Credit').fill('12.5');
    await page.getByRole('button', { name: 'Save custom fields' }).click();
    await page.getByText('Custom fields saved.').waitFor();
    const saved = Object.fromEntries(
      (
        (await server.t.inject('/customer/web-1/customfields/?jsconfig=DateHandler:ISO8601')).json() as Array<{
          Number: number;
          Value: unknown;
        }>
      ).map((f) => [f.Number, f.Value]),
    );
    assert.equal(saved[101], 'Gold');
    assert.equal(saved[102], 12);
    assert.equal(saved[103], true);
    assert.match(String(saved[104]), /^2024-05-01/);
    assert.equal(saved[105], 12.5);
    assert.deepEqual(saved[106], ['Green tea', 'Teaware']);
    assert.equal(saved[107], HOSTILE);
    await assertAccessible('Customer');
  });

  test('Export data downloads the JSON; Erase customer waits for the typed id, then erases', async () => {
    const { server, page } = c();
    await page.getByRole('heading', { level: 1, name: 'Customer web-1' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export data' }).click();
    const file = await (await download).path();
    const exported = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    assert.match(JSON.stringify(exported), /"CustomerId":"web-1"/);
    const audit = (await server.t.inject('/audit/?Take=1000')).json() as Array<{ Action: string; ResourceIds: string[] }>;
    assert.ok(
      audit.some((a) => a.Action === 'customer.export' && a.ResourceIds.includes('web-1')),
      'the export is audited',
    );

    const erase = page.getByRole('button', { name: 'Erase customer' });
    assert.equal(await erase.isDisabled(), true, 'not before the id is typed');
    await page.getByLabel('Type web-1 to confirm').fill('web-');
    assert.equal(await erase.isDisabled(), true);
    await page.getByLabel('Type web-1 to confirm').fill('web-1');
    await erase.click();
    await page.getByText('The customer was erased.').waitFor();
    const [after] = (await server.t.inject('/customer/?Identifiers=web-1')).json() as Array<Record<string, unknown>>;
    assert.equal(after!.CustomerId, 'web-1');
    assert.equal(after!.FirstName, null);
    assert.equal(after!.City, null);
  });

  test('Sign out forgets the key: the sign-in is back, also after a reload', async () => {
    const { server, page, signIn } = c();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await page.reload();
    await page.getByLabel('API key').waitFor();
    await signIn(server.t.keys.admin);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });
});
