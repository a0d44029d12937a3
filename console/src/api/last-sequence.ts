import { ApiError, get } from './client.js';

/** Whether the event feed holds an event with a Sequence above `after` (an expired After has newer ones). */
async function anyAbove(after: number): Promise<boolean> {
  try {
    return (await get<unknown[]>('/events/', { After: after, Take: 1 })).length > 0;
  } catch (e) {
    if (e instanceof ApiError && e.status === 410) return true;
    throw e;
  }
}

/**
 * The feed's last Sequence (0: no event yet). The feed reads forward from a Sequence and has no
 * "last" question, so this doubles a bound until nothing lies above it and then halves the gap:
 * about 2·log2(Sequence) one-row reads of the feed's index (40 at 10^6 events).
 */
export async function lastSequence(): Promise<number> {
  if (!(await anyAbove(0))) return 0;
  let low = 0; // an event lies above low
  let high = 1;
  while (await anyAbove(high)) {
    low = high;
    high *= 2;
  }
  // An event above low, none above high: the last Sequence is in (low, high].
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (await anyAbove(mid)) low = mid;
    else high = mid;
  }
  return high;
}
