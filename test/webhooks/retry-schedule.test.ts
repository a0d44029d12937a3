import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  DEFAULT_RETRY_SCHEDULE,
  DEFAULT_RETRY_SCHEDULE_TEXT,
  nextAttemptDelayMs,
  parseRetrySchedule,
} from '../../src/webhook-settings/retry-schedule.js';
import { assertSettingRefused } from './webhook-setting-asserts.js';

describe('retry schedule', () => {
  test('the default: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    assert.equal(DEFAULT_RETRY_SCHEDULE_TEXT, '5,300,1800,7200,18000,36000,36000');
    assert.deepEqual(DEFAULT_RETRY_SCHEDULE, [5, 300, 1800, 7200, 18000, 36000, 36000]);
    assert.ok(Object.isFrozen(DEFAULT_RETRY_SCHEDULE));
  });

  test('parseRetrySchedule: comma-separated seconds, blanks around items allowed, 0 and decimals too', () => {
    assert.deepEqual(parseRetrySchedule(' 1, 2 ,3.5 '), [1, 2, 3.5]);
    assert.deepEqual(parseRetrySchedule('0'), [0]);
    assert.deepEqual(parseRetrySchedule('2592000'), [2_592_000]);
  });

  test('parseRetrySchedule refuses empty, non-numbers, negatives and absurd pauses, naming WEBHOOK_RETRY_SCHEDULE', () => {
    for (const bad of ['', '   ', ',', '5,,300', '5,', 'a', '-5', '5,-1', '5s', '1e3', 'NaN', 'Infinity', '0x10', '.5', '2592001']) {
      assertSettingRefused(() => parseRetrySchedule(bad), 'WEBHOOK_RETRY_SCHEDULE', JSON.stringify(bad));
    }
  });

  test('nextAttemptDelayMs: the n-th failure waits the n-th entry; after the last one the delivery is dead', () => {
    const middle = (): number => 0.5;
    DEFAULT_RETRY_SCHEDULE.forEach((seconds, i) => assert.equal(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, i + 1, middle), seconds * 1000));
    assert.equal(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, DEFAULT_RETRY_SCHEDULE.length + 1, middle), undefined);
    assert.equal(nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, 100), undefined);
    assert.equal(nextAttemptDelayMs([], 1), undefined);
    assert.equal(
      nextAttemptDelayMs([0], 1, () => 0.99),
      0,
    );
  });

  test('jitter stays within ±20 % and spreads', () => {
    const schedule = parseRetrySchedule('300');
    assert.equal(
      nextAttemptDelayMs(schedule, 1, () => 0),
      240_000,
    );
    assert.ok(nextAttemptDelayMs(schedule, 1, () => 1 - Number.EPSILON)! <= 360_000);
    const delays = Array.from({ length: 2000 }, () => nextAttemptDelayMs(schedule, 1)!);
    for (const d of delays) assert.ok(d >= 240_000 && d <= 360_000, String(d));
    assert.ok(Math.min(...delays) < 250_000 && Math.max(...delays) > 350_000, 'the whole band is used');
    assert.ok(new Set(delays).size > 1000, 'not a handful of values');
  });

  test('failuresSoFar must be a whole number ≥ 1', () => {
    for (const n of [0, -1, 1.5, Number.NaN]) assert.throws(() => nextAttemptDelayMs(DEFAULT_RETRY_SCHEDULE, n), RangeError, String(n));
  });
});
