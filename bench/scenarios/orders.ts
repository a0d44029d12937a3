import { load } from '../lib/load.js';
import { call, customerId, describe, isMissingRoute, loadNote, notAvailable, type Scenario, type ScenarioContext, type ScenarioResult } from './scenario.js';

/**
 * A complete confirmation as a shop sends it: every other one for a known customer (by id), the
 * others for a new customer (by a fresh external id), with bank and payment data to validate.
 */
function confirmation(orderId: number, i: number, customers: number): Record<string, unknown> {
  const known = i % 2 === 0;
  return {
    OrderId: orderId,
    ...(known ? { CustomerId: customerId((i % customers) + 1) } : { ExternalCustomerId: `BENCH-${orderId}` }),
    CustomerSalutation: 'Frau',
    CustomerFirstName: 'Greta',
    CustomerLastName: `Fischer ${i}`,
    CustomerPostalCode: '80331',
    CustomerCity: 'München',
    CustomerCountry: 'DE',
    CustomerStreet: 'Hauptstraße',
    CustomerStreetNumber: '43',
    CustomerEMail: `greta.${i}@example.org`,
    CustomerIban: 'DE89370400440532013000',
    CustomerBic: 'COBADEFFXXX',
    AccountHolderName: 'Greta Fischer',
    PaymentMethod: 'Lastschrift',
    ShippingMethod: 'DHL',
    DeliveryDate: '/Date(1767225600000-0000)/',
    Payment: { Amount: 49.95, Name: 'Anzahlung', Type: 'PayPal' },
    Note: `bench ${orderId}`,
  };
}

export const confirm: Scenario = {
  id: 'confirm',
  label: 'order confirmation (durable)',
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const orders = ctx.openOrders;
    const firstId = orders.shift();
    if (firstId === undefined) return { status: 'failed', note: 'no open orders were seeded' };
    const first = await call(ctx.server, 'POST', `/orders/${firstId}/confirm`, confirmation(firstId, 0, ctx.customers));
    if (isMissingRoute(first)) return notAvailable('ConfirmOrder');
    if (first.status !== 200) return { status: 'failed', note: `confirmation: ${describe(first)}` };
    let i = 1;
    let exhausted = 0;
    const next = () => {
      const orderId = orders.shift();
      if (orderId === undefined) {
        // Out of fresh orders: an unknown order id answers 404 and is not counted as a confirmation.
        exhausted++;
        return { method: 'POST' as const, path: '/orders/2147483000/confirm', body: JSON.stringify(confirmation(2147483000, 0, ctx.customers)) };
      }
      return { method: 'POST' as const, path: `/orders/${orderId}/confirm`, body: JSON.stringify(confirmation(orderId, i++, ctx.customers)) };
    };
    const result = await load({ url: ctx.server.url, next, servingPids: ctx.server.servingPids });
    const note = [loadNote(result), exhausted > 0 ? `ran out of open orders (${exhausted} requests without one)` : undefined].filter(Boolean).join('; ');
    return { status: 'ok', load: result, ...(note ? { note } : {}) };
  },
};

export const orderScenarios: readonly Scenario[] = [confirm];
