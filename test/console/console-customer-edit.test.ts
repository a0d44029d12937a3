import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../clients/client-server.js';
import { assertFocus, errorUnder } from './console-form-checks.js';
import { describeConsole } from './console-suite.js';
import { createShowcase, SHOWCASE_CUSTOMER } from './showcase-data.js';

// Edit customer and New customer in the console (UpsertCustomer, which replaces the whole
// customer), driven by roles and visible names; every effect, and every refusal's lack of one, is
// read back through the API.

type Inject = RunningServer['t']['inject'];
type Customer = Record<string, string | null>;

/** The customer with this id as SearchCustomers answers it, or undefined (the id quoted: JSV, so a comma stays in it). */
async function customerOf(inject: Inject, id: string): Promise<Customer | undefined> {
  const res = await inject(`/customer/?Identifiers=${encodeURIComponent(`"${id}"`)}`);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as Customer[]).find((c) => c.CustomerId === id);
}

describeConsole(
  'the console: Edit customer, New customer',
  (c) => {
    test('Edit customer: every field starts as held, an address corrected, the other fields kept', async () => {
      const { server, page, shot, assertAccessible } = c();
      const inject: Inject = (o) => server.t.inject(o);
      await createShowcase(inject);
      const before = await customerOf(inject, SHOWCASE_CUSTOMER);
      assert.ok(before);
      await page.goto(`${server.baseUrl}/console/customers/${SHOWCASE_CUSTOMER}`);
      await page.getByRole('heading', { level: 1, name: `Customer ${SHOWCASE_CUSTOMER}` }).waitFor();
      await page.getByRole('button', { name: 'Edit customer' }).click();
      const form = page.getByRole('form', { name: 'Edit customer' });
      await form.waitFor();
      await assertFocus(page, 'External id', 'the form opens with its first input focused');
      // Grouped as the page shows the customer; each input starts with what the customer holds.
      assert.deepEqual(await form.locator('legend').allInnerTexts(), ['Customer', 'Address']);
      const shown: Record<string, string> = {
        ExternalId: 'External id',
        Salutation: 'Salutation',
        FirstName: 'First name',
        LastName: 'Last name',
        Company: 'Company',
        Company2: 'Company, 2nd line',
        Street: 'Street',
        StreetNumber: 'Street number',
        AdditionToAddress: 'Addition to address',
        Quarter: 'Quarter',
        PostalCode: 'Postal code',
        City: 'City',
        Country: 'Country',
      };
      for (const [field, label] of Object.entries(shown))
        assert.equal(await form.getByLabel(label, { exact: true }).inputValue(), before[field] ?? '', label);
      assert.equal(await form.getByLabel('Customer id', { exact: true }).count(), 0, 'the id is the customer, not a field to change');
      await assertAccessible('Edit customer');
      await shot('customer-edit');

      await form.getByLabel('Street', { exact: true }).fill('Kaiser-Joseph-Straße');
      await form.getByLabel('Street number', { exact: true }).fill('212');
      await form.getByLabel('Addition to address', { exact: true }).fill('2. OG');
      await form.getByRole('button', { name: 'Save customer' }).click();
      await page.getByText(`Customer ${SHOWCASE_CUSTOMER} was saved.`).waitFor();
      assert.equal(await form.count(), 0, 'the form closes');
      await assertFocus(page, 'Edit customer', 'the focus goes back to the button');
      const after = await customerOf(inject, SHOWCASE_CUSTOMER);
      assert.deepEqual(after, { ...before, Street: 'Kaiser-Joseph-Straße', StreetNumber: '212', AdditionToAddress: '2. OG' });
      // The page read the customer again.
      const address = page.getByLabel('Address', { exact: true });
      await address.locator('dt:text-is("Street") + dd').getByText('Kaiser-Joseph-Straße', { exact: true }).waitFor();
      assert.equal(await address.locator('dt:text-is("Addition to address") + dd').innerText(), '2. OG');
    });

    test('Edit customer: an over-long value is refused under its input, nothing changes; Escape closes', async () => {
      const { server, page, assertAccessible } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const before = await customerOf(inject, SHOWCASE_CUSTOMER);
      await page.getByRole('button', { name: 'Edit customer' }).click();
      const form = page.getByRole('form', { name: 'Edit customer' });
      await form.getByLabel('City', { exact: true }).fill('F'.repeat(256));
      await form.getByLabel('First name', { exact: true }).fill('');
      await form.getByRole('button', { name: 'Save customer' }).click();
      assert.match(await errorUnder(page, 'City', form), /255/);
      assert.equal(await form.getByLabel('First name', { exact: true }).getAttribute('aria-invalid'), null, 'only the field named');
      assert.deepEqual(await customerOf(inject, SHOWCASE_CUSTOMER), before, 'a refused request writes nothing');
      await assertAccessible('Edit customer with an error');

      await form.getByLabel('City', { exact: true }).focus();
      await page.keyboard.press('Escape');
      assert.equal(await form.count(), 0, 'Escape closes the form');
      await assertFocus(page, 'Edit customer', 'Escape gives the focus back to the button');
      // Opened again, it starts from what the customer holds, not from what was typed.
      await page.keyboard.press('Enter');
      await assertFocus(page, 'External id', 'opened by keyboard, its first input focused');
      assert.equal(await form.getByLabel('City', { exact: true }).inputValue(), before!.City);
      assert.equal(await form.getByLabel('First name', { exact: true }).inputValue(), before!.FirstName);
      await form.getByRole('button', { name: 'Close' }).click();
      await assertFocus(page, 'Edit customer', 'Close gives the focus back to the button');
    });

    test('New customer: an id that is taken is refused, one only an external id matches is not; then its page', async () => {
      const { server, page, go, assertAccessible } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const held = await customerOf(inject, SHOWCASE_CUSTOMER);
      await go('Customers');
      await page.getByRole('button', { name: 'New customer' }).click();
      const form = page.getByRole('form', { name: 'New customer' });
      await form.waitFor();
      await assertFocus(page, 'Customer id', 'the form opens with the id focused');
      await assertAccessible('New customer');

      await form.getByLabel('First name', { exact: true }).fill('Mara');
      await form.getByRole('button', { name: 'Save customer' }).click();
      assert.match(await errorUnder(page, 'Customer id', form), /Enter the id/);

      await form.getByLabel('Customer id', { exact: true }).fill(SHOWCASE_CUSTOMER);
      await form.getByRole('button', { name: 'Save customer' }).click();
      await form.getByText(`A customer with the id ${SHOWCASE_CUSTOMER} exists already`).waitFor();
      assert.match(await errorUnder(page, 'Customer id', form), /exists already/);
      assert.deepEqual(await customerOf(inject, SHOWCASE_CUSTOMER), held, 'the customer who has the id is untouched');

      // An id with a comma is one id, not two, for the question asked before the PUT too.
      const comma = await inject({ method: 'PUT', url: `/customer/${encodeURIComponent('K-1,2')}`, payload: { LastName: 'Komma' } });
      assert.equal(comma.statusCode, 201, comma.body);
      await form.getByLabel('Customer id', { exact: true }).fill('K-1,2');
      await form.getByRole('button', { name: 'Save customer' }).click();
      await form.getByText('A customer with the id K-1,2 exists already').waitFor();
      assert.equal((await customerOf(inject, 'K-1,2'))?.LastName, 'Komma', 'untouched');

      // A customer made by someone else after the question: the PUT answers 200, and the form says so.
      const search = (url: URL): boolean => url.pathname === '/customer/';
      await page.route(search, (route) =>
        route.request().method() === 'GET' ? route.fulfill({ json: [], headers: { 'x-sync-cursor': '' } }) : route.continue(),
      );
      await form.getByLabel('Customer id', { exact: true }).fill('K-10231');
      await form.getByRole('button', { name: 'Save customer' }).click();
      await form.getByText(/was made meanwhile by someone else/).waitFor();
      assert.match(await errorUnder(page, 'Customer id', form), /was made meanwhile by someone else and this save replaced it/);
      await page.unroute(search);
      assert.equal((await customerOf(inject, 'K-10231'))?.FirstName, 'Mara', 'what happened is what the form says');

      // SHOP-10233 is K-10233's external id: the search finds K-10233 by it, yet the id is free.
      await form.getByLabel('Customer id', { exact: true }).fill('SHOP-10233');
      await form.getByLabel('Last name', { exact: true }).fill('Vogel');
      await form.getByLabel('Postal code', { exact: true }).fill('6020');
      await form.getByLabel('City', { exact: true }).fill('Innsbruck');
      await form.getByLabel('Country', { exact: true }).fill('AT');
      await form.getByRole('button', { name: 'Save customer' }).click();
      await page.getByRole('heading', { level: 1, name: 'Customer SHOP-10233' }).waitFor();
      assert.deepEqual(await customerOf(inject, 'SHOP-10233'), {
        CustomerId: 'SHOP-10233',
        ExternalId: null,
        Salutation: null,
        FirstName: 'Mara',
        LastName: 'Vogel',
        PostalCode: '6020',
        City: 'Innsbruck',
        Country: 'AT',
        Street: null,
        StreetNumber: null,
        Company: null,
        Company2: null,
        AdditionToAddress: null,
        Quarter: null,
      });
      assert.deepEqual(await customerOf(inject, SHOWCASE_CUSTOMER), held);
      assert.equal(await page.getByLabel('Address', { exact: true }).locator('dt:text-is("City") + dd').innerText(), 'Innsbruck');
    });

    test('a key without admin is offered neither Edit customer nor New customer', async () => {
      const { server, page, go, signIn } = c();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(server.t.keys.all);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await go('Customers');
      await page.getByRole('link', { name: SHOWCASE_CUSTOMER }).click();
      await page.getByRole('heading', { level: 1, name: `Customer ${SHOWCASE_CUSTOMER}` }).waitFor();
      await page.getByLabel('Address', { exact: true }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Edit customer' }).count(), 0);
      await go('Customers');
      await page.getByRole('link', { name: SHOWCASE_CUSTOMER }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'New customer' }).count(), 0);
    });
  },
  { signedIn: true },
);
