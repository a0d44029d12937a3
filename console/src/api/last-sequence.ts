import { ApiError, get } from './client.js';

/** Whether a feed holds an entry with a Sequence above `after` (an expired After has newer ones). */
async function anyAbove(feed: string, after: number): Promise<boolean> {
  try {
    return (await get<unknown[]>(feed, { After: after, Take: 1 })).length > 0;
  } catch (e) {
    if (e instanceof ApiError && e.status === 410) return true;
    throw e;
  }
}

/**
 * A feed's last Sequence (0: empty): `/events/` or `/audit/`. Both read forward from a Sequence and have no
 * "last" question, so this doubles a bound until nothing lies above it and then halves the gap:
 * about 2·log2(Sequence) one-row reads of the feed's index (40 at 10^6 events).
 */
export async function lastSequence(feed = '/events/'): Promise<number> {
  if (!(await anyAbove(feed, 0))) return 0;
  let low = 0; // an event lies above low
  let high = 1;
  while (await anyAbove(feed, high)) {
    low = high;
    high *= 2;
  }
  // An event above low, none above high: the last Sequence is in (low, high].
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await anyAbove(feed, mid)) low = mid;
    else high = mid;
  }
  return high;
}
