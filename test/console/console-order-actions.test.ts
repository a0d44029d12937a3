import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunningServer } from '../clients/client-server.js';
import { confirmation } from '../orders/order-fixtures.js';
import { describeConsole } from './console-suite.js';
import { assertFocus, errorUnder } from './console-form-checks.js';

// The order's actions in the console (design.md, "The operator console", "Order content", "Order
// life after confirmation"), driven by roles and visible names; each effect read back through the
// API, each refusal shown under the input of the field the API names.

type Inject = RunningServer['t']['inject'];

const LINE = { Sku: 'TEE-1', Name: 'T-shirt', Quantity: 1, UnitPrice: 10, TaxRate: 19 };

async function createOrder(inject: Inject, body: Record<string, unknown>): Promise<number> {
  const res = await inject({ method: 'POST', url: '/orders', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return (res.json() as { OrderId: number }).OrderId;
}

async function confirmedOrder(inject: Inject, number: string, lines: unknown[] = [LINE]): Promise<number> {
  const id = await createOrder(inject, { OrderNumber: number, Lines: lines });
  const res = await inject({
    method: 'POST',
    url: `/orders/${id}/confirm`,
    payload: confirmation({ ExternalCustomerId: number, Payment: undefined }),
  });
  assert.equal(res.statusCode, 200, res.body);
  return id;
}

/** The order numbers the feed finds with these filters. */
const feedNumbers = async (inject: Inject, query: string): Promise<string[]> => {
  const res = await inject(`/orders/?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as Array<{ OrderNumber: string }>).map((o) => o.OrderNumber);
};

/** Whether the service has a route (its OpenAPI document says so). */
const hasRoute = async (inject: Inject, path: string): Promise<boolean> =>
  Boolean((((await inject('/openapi.json')).json() as { paths: Record<string, unknown> }).paths ?? {})[path]);

describeConsole(
  'the console: order actions',
  (c) => {
    test('Edit order: rows added by keyboard and removed, an error under Lines[1].Quantity, then saved through UpdateOrder', async () => {
      const { server, page, shot, assertAccessible } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const id = await createOrder(inject, { OrderNumber: 'EDIT-1', Note: 'Ring first', Lines: [LINE] });
      await page.goto(`${server.baseUrl}/console/orders/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Order EDIT-1' }).waitFor();
      await page.getByRole('button', { name: 'Edit order' }).click();
      const form = page.getByRole('form', { name: 'Edit order' });
      await form.waitFor();
      await assertFocus(page, 'Note', 'the form opens with its first input focused');
      assert.equal(await page.getByLabel('SKU, line 1').inputValue(), 'TEE-1', 'the lines start as the order holds them');
      assert.equal(await page.getByLabel('Note').inputValue(), 'Ring first', 'the note starts as the order holds it');

      // A person on the keyboard: Add line moves the focus into the new row; Tab walks its inputs.
      await page.getByRole('button', { name: 'Add line' }).focus();
      await page.keyboard.press('Enter');
      await assertFocus(page, 'SKU, line 2', 'Add line moves the focus into the new row');
      await page.keyboard.type('MUG-2');
      await page.keyboard.press('Tab');
      await page.keyboard.type('Mug');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Control+A');
      await page.keyboard.type('0');
      await page.keyboard.press('Tab');
      await page.keyboard.type('7,50');
      await page.keyboard.press('Tab');
      await page.keyboard.type('7');
      await page.getByRole('button', { name: 'Add line' }).click();
      await page.getByLabel('SKU, line 3').fill('GONE');
      await page.getByRole('button', { name: 'Remove line 3' }).click();
      assert.equal(await page.getByLabel('SKU, line 3').count(), 0);

      await page.getByRole('button', { name: 'Save order' }).click();
      assert.match(await errorUnder(page, 'Quantity, line 2'), /Quantity/);
      const unchanged = (await inject(`/orders/${id}`)).json() as { Lines: unknown[] };
      assert.equal(unchanged.Lines.length, 1, 'a refused request writes nothing');
      await assertAccessible('Edit order with an error');
      await shot('order-edit');

      await page.getByLabel('Quantity, line 2').fill('2');
      await page.getByLabel('Shipping amount').fill('4.90');
      await page.getByLabel('Shipping tax rate (%)').fill('19');
      await page.getByLabel('Note').fill('Gift wrap');
      await page.getByRole('button', { name: 'Save order' }).click();
      await page.getByRole('status').filter({ hasText: 'The order was saved.' }).waitFor();
      assert.equal(await form.count(), 0, 'the form closes');
      await assertFocus(page, 'Edit order', 'the focus goes back to the button that opened it');
      const saved = (await inject(`/orders/${id}`)).json() as {
        Lines: Array<{ Sku: string; Quantity: number; UnitPrice: number; TaxRate: number }>;
        Shipping: { Amount: number; TaxRate: number } | null;
        Totals: { Gross: number };
        Note: string | null;
      };
      assert.equal(saved.Note, 'Gift wrap');
      assert.deepEqual(
        saved.Lines.map((l) => [l.Sku, l.Quantity, l.UnitPrice, l.TaxRate]),
        [
          ['TEE-1', 1, 10, 19],
          ['MUG-2', 2, 7.5, 7],
        ],
      );
      assert.deepEqual(saved.Shipping && [saved.Shipping.Amount, saved.Shipping.TaxRate], [4.9, 19]);
      // 10 × 1.19 + 15 × 1.07 + 4.90 × 1.19 = 11.90 + 16.05 + 5.83
      assert.equal(saved.Totals.Gross, 33.78);
      await page.getByRole('cell', { name: 'MUG-2' }).waitFor();

      // Escape closes the form too, and the focus returns to its button.
      await page.getByRole('button', { name: 'Edit order' }).click();
      await assertFocus(page, 'Note', 'the form opens with its first input focused');
      assert.equal(await page.getByLabel('Note').inputValue(), 'Gift wrap', 'the saved note is filled in');
      await page.keyboard.press('Escape');
      await form.waitFor({ state: 'detached' });
      await assertFocus(page, 'Edit order', 'Escape gives the focus back too');
    });

    test('Create order with lines: the same editor; its error named by line', async () => {
      const { server, page, go } = c();
      await go('Orders');
      await page.getByRole('button', { name: 'Create order' }).click();
      await page.getByLabel('Order number').fill('WEB-LINES');
      await page.getByRole('button', { name: 'Add line' }).click();
      await page.getByLabel('SKU, line 1').fill('CAP-1');
      await page.getByLabel('Name, line 1').fill('Cap');
      await page.getByLabel('Unit price, line 1').fill('12.345');
      await page.getByLabel('Tax rate (%), line 1').fill('19');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      assert.match(await errorUnder(page, 'Unit price, line 1'), /decimals/);
      assert.deepEqual(await feedNumbers((o) => server.t.inject(o), 'OrderNumbers=WEB-LINES'), []);
      await page.getByLabel('Unit price, line 1').fill('12.34');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Order WEB-LINES' }).waitFor();
      const found = (await server.t.inject('/orders/?OrderNumbers=WEB-LINES')).json() as Array<{ Lines: Array<{ Sku: string }> }>;
      assert.deepEqual(
        found[0]!.Lines.map((l) => l.Sku),
        ['CAP-1'],
      );
    });

    test('Record payment and Record refund on a confirmed order; the payment filter of the list finds it', async () => {
      const { server, page, go, shot, assertAccessible, assertDatesFormatted } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const id = await confirmedOrder(inject, 'PAY-1');
      await page.goto(`${server.baseUrl}/console/orders/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Order PAY-1' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Edit order' }).count(), 0, 'a confirmed order is not edited');

      await page.getByRole('button', { name: 'Record payment' }).click();
      const payment = page.getByRole('form', { name: 'Record payment' });
      await payment.waitFor();
      await page.getByLabel('Amount (EUR)').fill('5,00');
      await page.getByLabel('Type').selectOption('PayPal');
      await page.getByLabel('Reference number').fill('PP-42');
      await assertAccessible('Record payment');
      await shot('order-payment');
      await page.getByRole('button', { name: 'Save payment' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /A payment of .*5.* was recorded\./ })
        .waitFor();
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${id}&PaymentStatuses=PartiallyPaid`), ['PAY-1']);
      const events = (await inject('/events/?Types=order.payment_created')).json() as Array<{ Data: { OrderId: number } }>;
      assert.equal(events.filter((e) => e.Data.OrderId === id).length, 1, 'recorded once');
      const read = (await inject(`/orders/${id}`)).json() as { Payments?: unknown[]; PaymentStatus?: string };
      if (read.Payments) {
        // A service whose GetOrder lists the order's life: the page shows what was recorded.
        await page.getByRole('table', { name: 'Payments' }).getByRole('cell', { name: 'PP-42' }).waitFor();
        assert.equal(read.PaymentStatus, 'PartiallyPaid');
        await page.getByText('PartiallyPaid', { exact: true }).first().waitFor();
      }

      await page.getByRole('button', { name: 'Record refund' }).click();
      await page.getByRole('form', { name: 'Record refund' }).waitFor();
      await page.getByLabel('Amount (EUR)').fill('9');
      await page.getByRole('button', { name: 'Save refund' }).click();
      assert.ok((await errorUnder(page, 'Amount (EUR)')).length > 0, 'more than was paid: refused on Amount');
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${id}&PaymentStatuses=PartiallyRefunded`), []);
      await assertAccessible('Record refund with an error');
      await page.getByLabel('Amount (EUR)').fill('2');
      await page.getByLabel('Reason').fill('Scratched');
      await page.getByRole('button', { name: 'Save refund' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /A refund of .*2.* was recorded\./ })
        .waitFor();
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${id}&PaymentStatuses=PartiallyRefunded`), ['PAY-1']);
      await assertDatesFormatted('Order with a payment and a refund');

      // The list's payment filter, kept in the address.
      await go('Orders');
      await page.getByLabel('Payment', { exact: true }).selectOption('PartiallyRefunded');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/Payment=PartiallyRefunded/);
      await page.getByRole('link', { name: 'EDIT-1' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'PAY-1' }).waitFor();
      const rows = page.locator('table tbody tr');
      assert.deepEqual(await rows.locator('td:first-child').allInnerTexts(), ['PAY-1']);
      await page.reload();
      await page.getByRole('link', { name: 'PAY-1' }).waitFor();
      assert.equal(await page.getByLabel('Payment', { exact: true }).inputValue(), 'PartiallyRefunded');
      await assertAccessible('Orders filtered by payment');
    });

    test('Add shipment and Record return, and the fulfilment filter, where the service records shipments', async () => {
      const { server, page, go, shot, assertAccessible, assertDatesFormatted } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const shipments = await hasRoute(inject, '/orders/{OrderId}/shipments');
      const id = await confirmedOrder(inject, 'SHIP-1', [LINE, { ...LINE, Sku: 'SOCK-2', Name: 'Socks', Quantity: 3 }]);
      await page.goto(`${server.baseUrl}/console/orders/${id}`);
      await page.getByRole('heading', { level: 1, name: 'Order SHIP-1' }).waitFor();
      await page.getByRole('button', { name: 'Record payment' }).waitFor();
      if (!shipments) {
        // An older service: what it cannot record is not offered.
        assert.equal(await page.getByRole('button', { name: 'Add shipment' }).count(), 0);
        assert.equal(await page.getByRole('button', { name: 'Record return' }).count(), 0);
        await go('Orders');
        assert.equal(await page.getByLabel('Fulfilment', { exact: true }).count(), 0);
        return;
      }
      await page.getByRole('button', { name: 'Add shipment' }).click();
      await page.getByRole('form', { name: 'Add shipment' }).waitFor();
      await page.getByLabel('Quantity to ship, line 2').fill('4');
      await page.getByRole('button', { name: 'Save shipment' }).click();
      assert.ok((await errorUnder(page, 'Quantity to ship, line 2')).length > 0, 'more than is left to ship');
      await assertAccessible('Add shipment with an error');
      await shot('order-shipment');
      await page.getByLabel('Quantity to ship, line 2').fill('2');
      await page.getByLabel('Carrier').fill('DHL');
      await page.getByLabel('Tracking number').fill('TRACK-1');
      await page.getByLabel('Tracking URL').fill('https://track.example/TRACK-1');
      await page.getByRole('button', { name: 'Save shipment' }).click();
      await page.getByRole('status').filter({ hasText: 'The shipment was recorded.' }).waitFor();
      if (((await inject(`/orders/${id}`)).json() as { Shipments?: unknown[] }).Shipments) {
        const tracking = page.getByRole('table', { name: 'Shipments' }).getByRole('link', { name: 'TRACK-1' });
        assert.equal(await tracking.getAttribute('href'), 'https://track.example/TRACK-1');
      }
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${id}&FulfillmentStatuses=PartiallyFulfilled`), ['SHIP-1']);

      await page.getByRole('button', { name: 'Record return' }).click();
      await page.getByRole('form', { name: 'Record return' }).waitFor();
      await page.getByLabel('Quantity returned, line 2').fill('1');
      await page.getByLabel('Reason').fill('Too small');
      await assertAccessible('Record return');
      await page.getByRole('button', { name: 'Save return' }).click();
      await page.getByRole('status').filter({ hasText: 'The return was recorded.' }).waitFor();
      if (((await inject(`/orders/${id}`)).json() as { Returns?: unknown[] }).Returns)
        await page
          .getByRole('listitem')
          .filter({ hasText: /#2 × 1.*Too small/ })
          .waitFor();
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${id}&FulfillmentStatuses=PartiallyReturned`), ['SHIP-1']);
      await assertDatesFormatted('Order with a shipment and a return');

      await go('Orders');
      await page.getByLabel('Fulfilment', { exact: true }).selectOption('PartiallyReturned');
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/Fulfilment=PartiallyReturned/);
      await page.getByRole('link', { name: 'EDIT-1' }).waitFor({ state: 'detached' });
      await page.getByRole('link', { name: 'SHIP-1' }).waitFor();
      assert.deepEqual(await page.locator('table tbody tr td:first-child').allInnerTexts(), ['SHIP-1']);
    });

    test('a key with fulfilment but not admin records payments and may not edit; a read-only key is offered neither', async () => {
      const { server, page, signIn } = c();
      const inject: Inject = (o) => server.t.inject(o);
      const made = await inject({ method: 'POST', url: '/keys', payload: { Name: 'warehouse', Permissions: ['all', 'fulfilment'] } });
      assert.equal(made.statusCode, 201, made.body);
      const warehouse = (made.json() as { Key: string }).Key;
      const open = await createOrder(inject, { OrderNumber: 'WH-OPEN' });
      const confirmed = await confirmedOrder(inject, 'WH-CONF');

      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(warehouse);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.goto(`${server.baseUrl}/console/orders/${open}`);
      await page.getByRole('heading', { level: 1, name: 'Order WH-OPEN' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Edit order' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: 'Record payment' }).count(), 0, 'not on an open order');
      await page.goto(`${server.baseUrl}/console/orders/${confirmed}`);
      await page.getByRole('heading', { level: 1, name: 'Order WH-CONF' }).waitFor();
      assert.equal(await page.getByRole('button', { name: 'Cancel order' }).count(), 0);
      await page.getByRole('button', { name: 'Record payment' }).click();
      await page.getByLabel('Amount (EUR)').fill('11.90');
      await page.getByRole('button', { name: 'Save payment' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /A payment of .* was recorded\./ })
        .waitFor();
      assert.deepEqual(await feedNumbers(inject, `OrderIds=${confirmed}&PaymentStatuses=Paid`), ['WH-CONF']);

      await page.getByRole('button', { name: 'Sign out' }).click();
      await signIn(server.t.keys.all);
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      await page.goto(`${server.baseUrl}/console/orders/${confirmed}`);
      await page.getByRole('heading', { level: 1, name: 'Order WH-CONF' }).waitFor();
      for (const name of ['Record payment', 'Record refund', 'Add shipment', 'Record return', 'Edit order'])
        assert.equal(await page.getByRole('button', { name }).count(), 0, name);
      await page.getByRole('button', { name: 'Sign out' }).click();
    });
  },
  { signedIn: true },
);
