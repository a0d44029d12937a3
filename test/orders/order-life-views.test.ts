import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_RECORDS } from '../../src/orders/order-life.records.js';
import { FULFILLMENT_STATUSES, PAYMENT_STATUSES } from '../../src/orders/order-life.status.js';
import { lifeText, lifeView } from '../../src/orders/order-life.views.js';
import { dateText, toJson } from '../../src/wire/serializer.js';
import { seededRandom } from '../helpers/seeded-random.js';

const viewText = (order: Parameters<typeof lifeText>[0]): string =>
  toJson(lifeView(order, dateText('wcf')), 'pascal', 'wcf', true).slice(1, -1);

test("lifeText of an order without records is the view's text: every pair of statuses, amounts of every size and scale", (t) => {
  const random = seededRandom();
  random.report(t);
  const amounts = [
    '0.00',
    '0',
    '7',
    '0.10',
    '0.05',
    '10.00',
    '49.90',
    '100000000000.16',
    '999999999999.999',
    '12345678901234567.89',
    '0.500',
  ];
  for (let i = 0; i < 2000; i++) {
    const digits = random.below(4);
    const units = BigInt(random.below(10 ** random.below(16)));
    const text =
      digits === 0
        ? units.toString()
        : `${units / 10n ** BigInt(digits)}.${(units % 10n ** BigInt(digits)).toString().padStart(digits, '0')}`;
    amounts.push(text);
  }
  for (const fulfillment_status of FULFILLMENT_STATUSES) {
    for (const payment_status of PAYMENT_STATUSES) {
      for (let i = 0; i < amounts.length; i++) {
        const order = {
          fulfillment_status,
          payment_status,
          paid: amounts[i]!,
          refunded: amounts[amounts.length - 1 - i]!,
          records: NO_RECORDS,
        };
        assert.equal(lifeText(order), viewText(order), `${amounts[i]} / ${amounts[amounts.length - 1 - i]}`);
      }
    }
  }
});
