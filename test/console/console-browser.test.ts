import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { startServer, type RunningServer } from '../clients/client-server.js';
import { launchBrowser, noBrowser, screenshotDir, seriousAxeViolations, type Browser, type Session } from '../helpers/browser.js';
import { BACKENDS } from '../helpers/test-store.js';
import { confirmation } from '../orders/order-fixtures.js';

// The console driven as a person uses it: by roles and visible names (design.md, "The operator
// console"), with data made through the API and every action's effect checked through the API.
// One browser for the file; one server per backend.

const NAV = ['Orders', 'Customers', 'Status'];
const HOSTILE = '<img src=x onerror="window.__pwned=1">';

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await seriousAxeViolations(page);
  assert.deepEqual(violations, [], `${what}: serious or critical axe-core violations`);
}

describe('the operator console in a real browser (Debian chromium via playwright-core)', { skip: noBrowser }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  for (const backend of BACKENDS) {
    describe(`[${backend}]`, () => {
      let server: RunningServer;
      let session: Session;
      let page: Page;
      const offsite: string[] = [];
      const policyViolations: string[] = [];
      const shot = (name: string): Promise<Buffer> => page.screenshot({ path: join(screenshotDir(), `${name}.png`), fullPage: true });
      const signIn = async (key: string): Promise<void> => {
        await page.getByLabel('API key').fill(key);
        await page.getByRole('button', { name: 'Sign in' }).click();
      };
      const go = async (name: string): Promise<void> => {
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).click();
        await page.getByRole('heading', { level: 1, name }).waitFor();
      };

      before(async () => {
        server = await startServer(backend);
        session = await browser.session();
        page = session.page;
        page.on('request', (r) => {
          if (!r.url().startsWith(server.baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) offsite.push(r.url());
        });
        page.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) policyViolations.push(m.text());
        });
      });
      after(async () => {
        assert.deepEqual(offsite, [], 'no request may leave the service (no CDN, no network)');
        assert.deepEqual(policyViolations, [], 'nothing the page does is refused by its CSP');
        // The context goes first: it holds connections to the server open.
        await session?.close();
        await server?.close();
      });

      test('a browser at / lands on the sign-in; a wrong key is refused next to the field; the right one opens the console', async () => {
        await page.goto(`${server.baseUrl}/`);
        assert.equal(new URL(page.url()).pathname, '/console/');
        await page.getByRole('heading', { name: 'ordergate console' }).waitFor();
        await assertAccessible(page, 'sign-in');
        if (backend === BACKENDS[0]) await shot('sign-in');
        await signIn('og_not-a-key-of-this-service');
        const field = page.getByLabel('API key');
        await page.getByText(/API key|Invalid|not valid|unknown/i).and(page.locator('.field-error')).waitFor();
        assert.equal(await field.getAttribute('aria-invalid'), 'true');
        await signIn(server.t.keys.admin);
        const nav = page.getByRole('navigation', { name: 'Main' });
        for (const name of NAV) await nav.getByRole('link', { name, exact: true }).waitFor();
        assert.equal(await page.evaluate(() => sessionStorage.length), 1, 'the key is in sessionStorage');
        assert.equal(await page.evaluate(() => localStorage.length), 0, 'and nowhere else');
        assert.deepEqual(await session.context.cookies(), []);
        assert.doesNotMatch(page.url(), new RegExp(server.t.keys.admin.slice(3, 12)));
      });

      test('Status: readiness, replica, webhook backlog, the last Sequence, version', async () => {
        const put = await server.t.inject({ method: 'PUT', url: '/customer/status-1', payload: { FirstName: 'Stat' } });
        assert.equal(put.statusCode, 200);
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
        await assertAccessible(page, 'Status');
        if (backend === BACKENDS[0]) await shot('status');
      });

      test('Customers: found by id, the page with the 14 fields, custom fields by type, the orders, a hostile name stays text', async () => {
        const defs: Array<[number, string, string, string[] | null]> = [
          [101, 'Tier', 'Select', ['Gold', 'Silver']],
          [102, 'Visits', 'Number', null],
          [103, 'Newsletter', 'Boolean', null],
          [104, 'Since', 'Date', null],
          [105, 'Credit', 'Decimal', null],
          [106, 'Topics', 'MultiSelect', ['Bikes', 'Books', 'Tea']],
          [107, 'Remark', 'Text', null],
        ];
        for (const [n, Label, FieldType, AllowedValues] of defs) {
          const res = await server.t.inject({ method: 'PUT', url: `/customfields/${n}`, payload: { Label, FieldType, AllowedValues } });
          assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
        }
        const put = await server.t.inject({ method: 'PUT', url: '/customer/web-1', payload: { FirstName: HOSTILE, LastName: '<script>window.__pwned=2</script>', City: 'Köln', PostalCode: '50667' } });
        assert.equal(put.statusCode, 200);
        await go('Customers');
        await page.getByLabel('Customer ids').fill('web-1');
        await page.getByRole('button', { name: 'Search' }).click();
        await page.getByRole('link', { name: 'web-1' }).waitFor();
        assert.match(new URL(page.url()).search, /Ids=web-1/, 'the filter is in the address');
        const row = page.getByRole('row', { name: /web-1/ });
        assert.equal(await row.getByRole('cell').nth(1).innerText(), `${HOSTILE} <script>window.__pwned=2</script>`);
        assert.equal(await page.locator('table img, table script').count(), 0, 'no element made of the name');
        await assertAccessible(page, 'Customers');
        if (backend === BACKENDS[0]) await shot('customers');

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
        await page.getByLabel('Topics').selectOption(['Bikes', 'Tea']);
        await page.getByLabel('Remark').fill(HOSTILE);
        await page.getByLabel('Credit').fill('12.5.1');
        await page.getByRole('button', { name: 'Save custom fields' }).click();
        // The API names the Decimal field's entry; its message stands under that input.
        const credit = page.locator('.field', { has: page.getByLabel('Credit') });
        await credit.locator('.field-error').waitFor();
        assert.equal(await page.getByLabel('Credit').getAttribute('aria-invalid'), 'true');
        const before = (await server.t.inject('/customer/web-1/customfields/')).json() as Array<{ Number: number; Value: unknown }>;
        assert.ok(before.every((f) => f.Value === null), 'nothing written: all or nothing');
        await page.getByLabel('Credit').fill('12.5');
        await page.getByRole('button', { name: 'Save custom fields' }).click();
        await page.getByText('Custom fields saved.').waitFor();
        const values = Object.fromEntries(((await server.t.inject('/customer/web-1/customfields/?jsconfig=DateHandler:ISO8601')).json() as Array<{ Number: number; Value: unknown }>).map((f) => [f.Number, f.Value]));
        assert.equal(values[101], 'Gold');
        assert.equal(values[102], 12);
        assert.equal(values[103], true);
        assert.match(String(values[104]), /^2024-05-01/);
        assert.equal(values[105], 12.5);
        assert.deepEqual(values[106], ['Bikes', 'Tea']);
        assert.equal(values[107], HOSTILE);
        await assertAccessible(page, 'Customer');
        if (backend === BACKENDS[0]) await shot('customer');
      });

      test('Export data downloads the JSON; Erase customer waits for the typed id, then erases', async () => {
        await page.getByRole('heading', { level: 1, name: 'Customer web-1' }).waitFor();
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export data' }).click();
        const file = await (await download).path();
        const exported = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
        assert.match(JSON.stringify(exported), /"CustomerId":"web-1"/);
        const audit = (await server.t.inject('/audit/?Take=1000')).json() as Array<{ Action: string; ResourceIds: string[] }>;
        assert.ok(audit.some((a) => a.Action === 'customer.export' && a.ResourceIds.includes('web-1')), 'the export is audited');

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

      test('Orders: filters in the address, keyset pages of 50, the order page with its confirmation, Cancel order', async () => {
        const ids: number[] = [];
        for (let i = 0; i < 53; i++) {
          const res = await server.t.inject({ method: 'POST', url: '/orders', payload: { OrderNumber: `LIST-${String(i).padStart(3, '0')}` } });
          assert.equal(res.statusCode, 201);
          ids.push((res.json() as { OrderId: number }).OrderId);
        }
        const confirmed = ids[0]!;
        const conf = await server.t.inject({ method: 'POST', url: `/orders/${confirmed}/confirm`, payload: confirmation({ CustomerFirstName: HOSTILE }) });
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
        await assertAccessible(page, 'Orders');
        if (backend === BACKENDS[0]) await shot('orders');
        await page.getByRole('button', { name: 'Next page' }).click();
        await page.waitForURL(/Cursor=/);
        await page.getByRole('link', { name: 'LIST-052' }).waitFor();
        const second = await rows.locator('td:first-child').allInnerTexts();
        assert.deepEqual(second.filter((n) => first.includes(n)), [], 'no order on both pages');
        assert.equal(first.length + second.length, 52);
        // The address alone restores the page (a reload, a shared link).
        await page.reload();
        await page.getByRole('link', { name: 'LIST-052' }).waitFor();

        await page.goto(`${server.baseUrl}/console/orders/${confirmed}`);
        await page.getByRole('heading', { level: 1, name: 'Order LIST-000' }).waitFor();
        const conf1 = page.getByRole('definition').filter({ hasText: HOSTILE });
        assert.equal(await conf1.count(), 1, 'the hostile name is text');
        await page.getByText('DE89********3000').waitFor();
        await page.getByRole('heading', { name: 'Timeline' }).waitFor();
        assert.ok((await page.locator('ol.timeline li').count()) >= 2);
        await assertAccessible(page, 'Order');
        if (backend === BACKENDS[0]) await shot('order');
        await page.getByRole('button', { name: 'Cancel order' }).click();
        await page.getByRole('definition').filter({ hasText: /^Cancelled$/ }).waitFor();
        assert.equal(((await server.t.inject(`/orders/${confirmed}`)).json() as { Status: string }).Status, 'Cancelled');
        assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0, 'not offered for a cancelled order');
      });

      test('Create order: a duplicate number is refused next to its field; a new one opens its page', async () => {
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
        const found = (await server.t.inject('/orders/?OrderNumbers=WEB-NEW')).json() as Array<{ Status: string }>;
        assert.equal(found.length, 1);
        assert.equal(found[0]!.Status, 'Open');
      });

      test('Sign out forgets the key: the sign-in is back, also after a reload', async () => {
        await page.getByRole('button', { name: 'Sign out' }).click();
        await page.getByLabel('API key').waitFor();
        assert.equal(await page.evaluate(() => sessionStorage.length), 0);
        await page.reload();
        await page.getByLabel('API key').waitFor();
        await signIn(server.t.keys.admin);
        await page.getByRole('button', { name: 'Sign out' }).waitFor();
      });
    });
  }
});
