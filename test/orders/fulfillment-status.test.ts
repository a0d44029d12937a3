import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fulfillmentStatusOf, type LineTally } from '../../src/orders/order-shipments.status.js';

const line = (quantity: number, shipped: number, returned = 0, n = 1): LineTally => ({ line_number: n, quantity, shipped, returned });

test('FulfillmentStatus: returns decide first, then whether every line is shipped', () => {
  const cases: Array<[LineTally[], string]> = [
    [[], 'Unfulfilled'],
    [[line(3, 0), line(1, 0, 0, 2)], 'Unfulfilled'],
    [[line(3, 1), line(1, 0, 0, 2)], 'PartiallyFulfilled'],
    [[line(3, 3), line(1, 0, 0, 2)], 'PartiallyFulfilled'],
    [[line(3, 3), line(1, 1, 0, 2)], 'Fulfilled'],
    [[line(3, 3, 1), line(1, 1, 0, 2)], 'PartiallyReturned'],
    [[line(3, 3, 3), line(1, 1, 0, 2)], 'PartiallyReturned'],
    [[line(3, 3, 3), line(1, 1, 1, 2)], 'Returned'],
    // Every shipped unit back, though not all were shipped: what left came back.
    [[line(3, 2, 2), line(1, 0, 0, 2)], 'Returned'],
  ];
  for (const [lines, status] of cases) assert.equal(fulfillmentStatusOf(lines), status, JSON.stringify(lines));
});
