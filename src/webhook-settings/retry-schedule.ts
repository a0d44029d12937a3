import { WebhookSettingError } from './webhook-setting-error.js';

/**
 * Seconds to wait before each retry, the first after the first failed attempt: 5 s, 5 min, 30 min,
 * 2 h, 5 h, 10 h, 10 h — eight attempts over about 27 hours, after which the delivery is Dead.
 */
export const DEFAULT_RETRY_SCHEDULE_TEXT = '5,300,1800,7200,18000,36000,36000';

// Thirty days: far beyond any sensible pause, and it keeps a typo (an extra digit or two) from
// parking a delivery for years.
const MAX_DELAY_SECONDS = 30 * 24 * 60 * 60;

/** ±20 % around each delay; see nextAttemptDelayMs. */
export const RETRY_JITTER = 0.2;

/** WEBHOOK_RETRY_SCHEDULE: comma-separated seconds (whole or decimal, ≥ 0), at least one. */
export function parseRetrySchedule(text: string): readonly number[] {
  const items = text.split(',').map((item) => item.trim());
  if (items.every((item) => item === ''))
    throw new WebhookSettingError('WEBHOOK_RETRY_SCHEDULE', 'expected comma-separated seconds such as 5,300,1800, got nothing');
  return Object.freeze(
    items.map((item) => {
      if (!/^\d+(\.\d+)?$/.test(item))
        throw new WebhookSettingError('WEBHOOK_RETRY_SCHEDULE', `expected a number of seconds ≥ 0, got '${item}'`);
      const seconds = Number(item);
      if (seconds > MAX_DELAY_SECONDS)
        throw new WebhookSettingError(
          'WEBHOOK_RETRY_SCHEDULE',
          `a pause may be at most ${MAX_DELAY_SECONDS} seconds (30 days), got ${item}`,
        );
      return seconds;
    }),
  );
}

/** The default schedule, parsed. */
export const DEFAULT_RETRY_SCHEDULE = parseRetrySchedule(DEFAULT_RETRY_SCHEDULE_TEXT);

/**
 * How long to wait, in ms, before the next attempt of a delivery that has failed `failuresSoFar` times
 * (≥ 1), or `undefined` when the schedule is used up and the delivery is Dead. The delay is the
 * schedule's entry times a random factor in [0.8, 1.2): when a receiver is down, the deliveries that
 * failed together would otherwise all come back at the same instant and knock it over again as it
 * recovers; ±20 % spreads them while each retry stays close to the documented schedule (never, as
 * "full jitter" could, almost immediately after the failure).
 */
export function nextAttemptDelayMs(
  schedule: readonly number[],
  failuresSoFar: number,
  random: () => number = Math.random,
): number | undefined {
  if (!Number.isInteger(failuresSoFar) || failuresSoFar < 1)
    throw new RangeError(`failuresSoFar must be a whole number ≥ 1, got ${failuresSoFar}`);
  const seconds = schedule[failuresSoFar - 1];
  if (seconds === undefined) return undefined;
  const factor = 1 - RETRY_JITTER + 2 * RETRY_JITTER * random();
  return Math.round(seconds * 1000 * factor);
}
